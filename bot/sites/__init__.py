"""Site adapters: each implements the core's ``SitePublisher`` port over HTTP."""
