"""The game services: the glue between Discord interactions, the engine and storage.

Services never import discord: they take ids and plain values, raise `UserFacingError` with a
catalogue key for anything a player should be told, and hand back what changed for the
Discord layer to render.
"""
