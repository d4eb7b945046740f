# The server image used by docker-compose.yml: migrations run on start, then `bob serve`.
FROM python:3.11-slim

WORKDIR /srv/bob
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1

COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY docs ./docs
RUN pip install --no-cache-dir -e .

# Inside the container the server listens on all interfaces so the published port reaches it;
# docker-compose.yml publishes it on the host's 127.0.0.1 only.
EXPOSE 8000
CMD ["sh", "-c", "bob migrate && bob serve --host 0.0.0.0 --port 8000"]
