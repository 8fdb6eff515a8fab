"""The one reader of each third-party format (Hub parameter counts, config.json context,
licences, prices), pure and called by the adapters in ``tracker/adapters``."""
