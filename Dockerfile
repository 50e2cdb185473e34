# Multi-stage build: compile with the full toolchain, run on a slim image as a non-root user.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY config ./config
COPY benches ./benches
COPY examples ./examples
# The web console's files are embedded in the binary (src/http/console.rs).
COPY console ./console
RUN cargo build --release --locked --bin scrape-agent

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates chromium-headless-shell \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin scrape
WORKDIR /app
COPY --from=build /src/target/release/scrape-agent /usr/local/bin/scrape-agent
COPY config ./config
RUN mkdir -p /app/data && chown scrape /app/data
USER scrape
ENV SCRAPE_AGENT__SERVER__BIND=0.0.0.0:8080
EXPOSE 8080
VOLUME ["/app/data"]
# Liveness without adding a package: the slim image has no curl or wget, and the binary has no
# health subcommand, but bash (essential in Debian) can open a TCP socket through /dev/tcp.
# It asks /healthz over HTTP/1.0 (the server closes after answering) on the port of
# SCRAPE_AGENT__SERVER__BIND, so `-e SCRAPE_AGENT__SERVER__BIND=…:9000` is followed; a port
# given with `--bind` instead is not seen here. The address is always 127.0.0.1, which an
# `0.0.0.0:…` or `127.0.0.1:…` bind answers on. `timeout` stops a server that accepts but
# never answers from hanging the check.
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
    CMD ["bash", "-c", "port=${SCRAPE_AGENT__SERVER__BIND##*:}; exec 3<>/dev/tcp/127.0.0.1/${port:-8080} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && timeout 4 head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["scrape-agent"]
CMD ["serve"]
