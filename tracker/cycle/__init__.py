"""One check cycle: watch specs in, fetch and parse per watch, observations and events recorded."""
