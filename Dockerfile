# syntax=docker/dockerfile:1
# Inkwell's service as a container image (docs/deploy.md, "With the container image"): `docker build -t inkwell .`, or
# `docker compose up -d` with compose.yaml (the service and PostgreSQL).
# Node 24 (LTS) meets package.json's engines; --build-arg NODE_VERSION=20 builds on Node 20.
ARG NODE_VERSION=24

# Build: the production dependencies (esbuild, which builds, is one), then `npm run build` (src/ →
# lib/, and the dashboard's bundled assets).
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/
COPY src/ src/
RUN npm run build

# Runtime: production dependencies only, the compiled service, and the files it reads at run time
# (package.json for its version, app.yml, the workflow template, vendored agent lists). Files are
# root's; the service runs as `node` and writes only to /data.
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/lib/ lib/
COPY bin/ bin/
COPY app.yml ./
COPY examples/ examples/
COPY vendor/ vendor/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Slim images have no curl: Node's own fetch asks /healthz (200 when the store answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs after its build step (scripts/ensure-ready.mjs), which the image did above.
CMD ["node", "lib/app/main.js"]
