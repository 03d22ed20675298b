# Mattekrig bot image. The token is read at run time from a file only the image's user reads
# (never typed on a command line, so in no shell history, and not in the container's
# environment, which `docker inspect` shows):
#   docker build -t mattekrig .
#   mkdir -p secrets && sudo install -m 0400 -o 10001 /dev/stdin secrets/discord_token
#       (paste the token, Enter, Ctrl-D)
#   docker run -d --name mattekrig --restart unless-stopped --log-opt max-size=10m \
#       --log-opt max-file=5 -e DISCORD_TOKEN_FILE=/run/secrets/discord_token \
#       -v "$PWD/secrets/discord_token:/run/secrets/discord_token:ro" \
#       -v mattekrig-data:/data mattekrig
#
# The base image is pinned to an exact release (Python 3.11.16 on Debian 13 "trixie"), so a
# rebuild gets the same interpreter; move the tag on purpose, with the lock below. (For a
# byte-for-byte pin, append the digest `docker pull` prints: `@sha256:…`.)
FROM python:3.11.16-slim-trixie

# The database lives on the /data volume; logs go to the container log without colour codes
# (colour is used only on a terminal).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/mattekrig.db

WORKDIR /app
# Every dependency (the PostgreSQL driver and the setuptools that builds the project
# included) from requirements.lock, each file checked against its hash; wheels only, so
# nothing is compiled and no unchecked build dependency is fetched. This layer is rebuilt
# only when the lock changes.
COPY requirements.lock ./
RUN pip install --require-hashes --only-binary=:all: -r requirements.lock

# Every package of the project (pyproject.toml's packages): the engine, the layer both
# screens share, storage, the bot, its commands, the browser table of `mattekrig play` and the
# school server of `mattekrig serve`.
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY classroom ./classroom
COPY storage ./storage
COPY bot ./bot
COPY cogs ./cogs
COPY table ./table
COPY school ./school
# The project itself, with nothing resolved again and the locked setuptools.
RUN pip install --no-deps --no-build-isolation . \
    && useradd --create-home --uid 10001 mattekrig \
    && mkdir -p /data && chown mattekrig:mattekrig /data && chmod 0700 /data

# Never root: the bot writes only /data.
USER mattekrig
VOLUME ["/data"]
# Healthy while the settings and the database check out, a bot runs on the database (SQLite:
# it holds the lock) and it is connected to Discord: its sign of life (bot/heartbeat.py) is at
# most 3 minutes old, so a bot reconnecting for longer turns unhealthy, on SQLite and on
# PostgreSQL. `docker ps` shows it. The start period covers the first login.
HEALTHCHECK --interval=60s --timeout=30s --start-period=120s --retries=3 \
    CMD ["mattekrig", "check", "--quiet", "--running"]
# `docker exec mattekrig mattekrig backup /data/backups/ --keep 14` etc. work beside the
# running bot.
CMD ["mattekrig", "run"]
