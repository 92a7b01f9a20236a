"""The routers: pages (``pages``, ``auth``, ``admin``) and the JSON API (``api``).

Routes are thin: parse the request, call a service, render or redirect.
"""
