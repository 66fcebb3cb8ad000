# Vigil: one image for the API, the Temporal worker and the migrator.
#   docker build -t vigil .   (or `docker compose build`)
# The command picks the role: node dist/src/cli/{api,worker,migrate}.js
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && node dist/src/cli/bundle-workflows.js dist/workflow-bundle.js

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
# Served at /docs/sla-verification (the guide every SLA statement links to).
COPY docs/sla-verification.md ./docs/sla-verification.md
# Workers load the prebuilt workflow bundle instead of running webpack at start.
ENV VIGIL_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js
USER node
EXPOSE 3000
CMD ["node", "dist/src/cli/api.js"]
