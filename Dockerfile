# syntax=docker/dockerfile:1
#
# Lanyard container image.
#
#   docker build -t lanyard .
#   docker run -d --name lanyard -p 3000:3000 -v lanyard-data:/app/data \
#     -v "$PWD/lanyard:/etc/lanyard:ro" -e LANYARD_CONFIG=/etc/lanyard/config.json \
#     -e LANYARD_ISSUER=https://id.example.org -e LANYARD_COOKIE_KEYS="$(openssl rand -base64 48)" \
#     -e LANYARD_TRUST_PROXY=true lanyard
#
# NODE_ENV=production: the demo configuration, plaintext secrets and passwords, an http issuer and missing
# cookie keys are refused at startup (see docs/configuration.md → Configuration). The data volume holds the SQLite
# database and the generated key-encryption key: back it up.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: compile TypeScript, then keep only production dependencies ----------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# argon2 and better-sqlite3 load their bundled prebuilt binaries (glibc, x64 and arm64): no install
# scripts and no compiler needed (package.json's allowScripts denies them too).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY adapters ./adapters
COPY interactions ./interactions
COPY config ./config
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime --------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    LANYARD_STORE=sqlite:/app/data/lanyard.db
WORKDIR /app
# package.json marks the project root (src/package-files.ts); config/ holds the JSON Schema and the demo config;
# src/web/public (the shared style sheets and scripts) and interactions/public (the sign-in screens' scripts)
# are read at startup (src/web/assets.ts). Everything is root-owned and read-only to the app.
# test/integration/docker-layout.test.ts runs the build stage as written, lays this stage out and starts it.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/config ./config
COPY --from=build /app/src/web/public ./src/web/public
COPY --from=build /app/interactions/public ./interactions/public
# The only writable place: SQLite database (+ WAL) and the generated key-encryption key (mode 0600).
RUN mkdir -p /app/data && chown node:node /app/data && chmod 0700 /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM/SIGINT itself (graceful shutdown: stop accepting, finish, close the store),
# and SIGHUP (reload the configuration file, replacing the workers one at a time).
CMD ["node", "dist/src/cli.js", "serve"]
