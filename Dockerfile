# Mattekrig bot image. The token is only ever read from the environment at run time:
#   docker build -t mattekrig .
#   docker run -d --name mattekrig -e DISCORD_TOKEN=... -v mattekrig-data:/data mattekrig
FROM python:3.11-slim

# The database lives on the /data volume; logs go to the container log without colour codes
# (colour is used only on a terminal).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/mattekrig.db

# `--build-arg EXTRAS=[postgres]` adds the PostgreSQL driver (docker-compose.yml does).
ARG EXTRAS=""
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir ".${EXTRAS}" \
    && useradd --create-home --uid 10001 mattekrig \
    && mkdir -p /data && chown mattekrig:mattekrig /data

USER mattekrig
VOLUME ["/data"]
# `docker exec mattekrig mattekrig backup /data/backups/ --keep 14` etc. work beside the running bot.
CMD ["mattekrig", "run"]
