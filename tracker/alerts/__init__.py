"""Alerts: subscriptions, delivering the event outbox through Apprise, and what a send did."""
