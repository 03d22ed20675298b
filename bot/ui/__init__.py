"""Buttons, modals and the custom_id grammar that lets them survive a restart."""
