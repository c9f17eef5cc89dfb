# syntax=docker/dockerfile:1
# Malefiz Discord bot: a static binary on a small image.
#   docker build -t malefiz .
#   docker run -d --name malefiz -e MALEFIZ_DISCORD_TOKEN=... -v malefiz-data:/data malefiz

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/malefiz ./cmd/malefiz \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/malefiz /usr/local/bin/malefiz
# The database lives on a volume owned by the non-root user (65532).
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME ["/data"]
ENV MALEFIZ_DATABASE_PATH=/data/malefiz.db
# /healthz, /readyz, /metrics, and /interactions in http mode.
ENV MALEFIZ_HTTP_LISTEN=0.0.0.0:8080
EXPOSE 8080
# The image has no curl: the binary asks its own /healthz.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/malefiz", "healthcheck"]
USER 65532:65532
WORKDIR /data
ENTRYPOINT ["/usr/local/bin/malefiz"]
CMD ["run"]
