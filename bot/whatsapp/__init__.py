"""WhatsApp (Meta's Cloud API) as a chat platform: signed webhooks in, paced messages out."""
