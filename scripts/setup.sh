#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine with Node 20 for SPADE: nats-server and chromium (apt, when absent),
# npm packages (onnxruntime-node's CUDA download skipped; see docs/model.md to opt in), and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nats-server >/dev/null 2>&1 && [ ! -x /usr/sbin/nats-server ] && [ -z "${NATS_SERVER_BIN:-}" ]; then
  echo "setup: installing nats-server from apt …"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nats-server
fi

# The dashboard's browser tests drive Debian's chromium through puppeteer-core (its own browser download cannot
# reach its host here); SPADE_CHROMIUM names another binary.
if [ -z "${SPADE_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  echo "setup: installing chromium from apt (the dashboard's browser tests) …"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
fi

# The TLS test makes its certificates with the openssl command line.
if ! command -v openssl >/dev/null 2>&1; then
  echo "setup: installing openssl from apt …"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openssl
fi

major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "setup: Node >= 20 is required (found $(node -v))" >&2
  exit 1
fi

echo "setup: installing npm packages …"
# onnxruntime-node's install script reads this variable (an .npmrc key would make npm 11 warn on every command);
# a GPU host opts in with ONNXRUNTIME_NODE_INSTALL=cuda12, see docs/model.md.
export ONNXRUNTIME_NODE_INSTALL="${ONNXRUNTIME_NODE_INSTALL:-skip}"
npm ci --no-audit --no-fund --loglevel=error
echo "setup: building …"
npm run build --silent
echo "setup: done"
