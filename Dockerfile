# syntax=docker/dockerfile:1
# One image for the `salient` CLI and the worker (`salient worker`). There is no build step: the
# TypeScript sources run through tsx, so the image is the sources plus node_modules.
#
#   docker build -t salient:0.1.0 .
#   docker run --rm salient:0.1.0 games
#   docker run --rm -e SALIENT_REDIS_URL=redis://redis:6379 salient:0.1.0 worker
#
# See infra/README.md for compose and Kubernetes.

ARG NODE_VERSION=20.20.2

FROM node:${NODE_VERSION}-bookworm-slim AS base
# Everything belongs to the unprivileged `node` user of the base image: the worker writes its telemetry
# spool and (for sandboxed BullMQ processors) compiled files at run time, and must not run as root.
RUN mkdir -p /app /var/lib/salient/spool && chown -R node:node /app /var/lib/salient
WORKDIR /app
USER node

# Only the package manifests, so the `npm ci` layer below is rebuilt when dependencies change and not
# on every source edit. `cp --parents` keeps each workspace's package.json at its own path.
FROM base AS manifests
COPY --chown=node:node . /tmp/src
RUN mkdir -p /tmp/manifests \
 && cd /tmp/src \
 && cp package.json package-lock.json /tmp/manifests/ \
 && find apps packages -name package.json -not -path '*/node_modules/*' -exec cp --parents '{}' /tmp/manifests/ ';'

FROM base AS deps
COPY --from=manifests --chown=node:node /tmp/manifests/ ./
# Dev dependencies are kept on purpose: tsx (a root devDependency) is what runs the sources.
RUN npm ci --no-audit --no-fund && npm cache clean --force

FROM deps AS runtime
# Copied over the deps stage (not the other way round) so nested workspace node_modules survive;
# .dockerignore keeps the host's node_modules out.
COPY --chown=node:node . .
# Undelivered telemetry waits here (see packages/telemetry/src/spool.ts); mount a volume on it.
ENV SALIENT_SPOOL_DIR=/var/lib/salient/spool
VOLUME ["/var/lib/salient/spool"]
# The worker's Prometheus /metrics and /health (SALIENT_METRICS_PORT, default 9466).
EXPOSE 9466
ENTRYPOINT ["node", "--import", "tsx", "apps/cli/src/main.ts"]
CMD ["--help"]
