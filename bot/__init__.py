"""The Mattekrig Discord bot process: configuration, storage, sessions, rendering, i18n."""
