"""Hugging Face Hub adapters: org listing, model info and the repo files its run reads."""
