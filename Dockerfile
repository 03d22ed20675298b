# Mattekrig bot image. The token is only ever read from the environment at run time:
#   docker build -t mattekrig .
#   docker run -d --name mattekrig -e DISCORD_TOKEN=... -v mattekrig-data:/data mattekrig
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/mattekrig.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 mattekrig \
    && mkdir -p /data && chown mattekrig:mattekrig /data

USER mattekrig
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
