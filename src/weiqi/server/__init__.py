"""The web application: server-rendered pages (Jinja2) and a JSON API under ``/api/``.

Build it with ``weiqi.server.app.create_app(db)``; ``weiqi serve`` runs it under uvicorn.
"""
