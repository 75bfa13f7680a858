"""The service's side of the engine: it feeds ``replay`` the stored records and keeps its
reports, findings and the rows derived from them (the app's label stays ``replay``: apps.py)."""
