"""Numbered migrations: 0001_…, 0002_… (see ``weiqi db revision``)."""
