# Multi-stage build: compile with the full toolchain, run on a slim image as a non-root user.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY config ./config
COPY benches ./benches
COPY examples ./examples
RUN cargo build --release --locked --bin scrape-agent

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
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
ENTRYPOINT ["scrape-agent"]
CMD ["serve"]
