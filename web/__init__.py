"""The site's pages: server-rendered templates in the reader's language (English, Russian)."""
