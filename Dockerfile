# syntax=docker/dockerfile:1
# jupbot: two stages. The build stage has the compilers better-sqlite3 needs (its prebuilt
# binaries cannot be downloaded here, so it builds from source); the runtime stage has none.

FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# node-gyp builds against the headers the node image ships in /usr/local/include/node rather than
# downloading them from nodejs.org: the build needs only the npm registry and Debian's mirrors.
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json .npmrc ./
# --ignore-scripts skips `prepare` (no sources yet); better-sqlite3 is then built explicitly.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY migrations ./migrations
COPY config ./config
COPY strategies ./strategies
COPY strategies.live ./strategies.live
# The image's `node` user (uid 1000) owns only the data volume; code stays root-owned and read-only to it.
# Its wallet lock goes to /tmp/jupbot-1000 (lock_dir's default here); containers that must not run one
# wallet twice share a lock_dir volume instead (docs/operations.md).
RUN install -d -m 0700 -o node -g node /data
USER node
VOLUME ["/data"]
# config/docker.yaml is default.yaml with data_dir /data and the ops server on all interfaces
# of the container; mount your own file and set JUPBOT_CONFIG to use it. A live config reads the
# wallet's key as a secret: wallet.keypair_file /run/secrets/wallet-key (docs/going-live.md), and
# `docker run … jupbot live check` is the preflight a first live start needs.
ENV JUPBOT_CONFIG=/app/config/docker.yaml
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The memory settings of `npm start` and deploy/jupbot.service (explained there): V8 tuned for size, two malloc arenas.
ENV MALLOC_ARENA_MAX=2
ENTRYPOINT ["node", "--optimize-for-size", "--enable-source-maps", "dist/cli/main.js"]
CMD ["run"]
