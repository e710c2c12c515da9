#!/bin/sh
# `npm run serve` (and the end of `npm start`): runs the built server, dist/server/main.mjs (`npm run build:server`
# bundles src/server with esbuild; node_modules stay outside the bundle). Run bundled rather than through tsx: the
# TypeScript loader and its compiled copies of every module held ≈ 65 MB for as long as the server ran.
#
# MALLOC_MMAP_THRESHOLD_ pins glibc's threshold at its default 128 kB. Left to itself glibc raises the threshold
# after large blocks are freed, and from then on keeps large blocks (a password hash's 16 MB of scrypt memory on
# each thread-pool thread, a new database's unpacked template) in heaps it never gives back: a first start stayed
# at ≈ 480 MB instead of ≈ 330 MB (issue 13). Other C libraries ignore the variable.
#
# --max-semi-space-size=1: V8's young generation grows to 2 × 16 MB under load and stays committed; at 1 MB the
# server idles ≈ 30 MB lower (issue 13's ≤ 250 MB idle needs it). The price, measured on a quiet 2-core machine
# (4 paired rounds, order list at 10 clients on PGlite, 10 s each): ≈ 10 % fewer requests per second (median
# 416 vs 460 req/s; per round 0.79–0.98) and ≈ 10–20 ms more at p99, for ≈ 30–40 MB less memory under load.
cd "$(dirname "$0")/.." || exit 1
exec env MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=1 dist/server/main.mjs "$@"
