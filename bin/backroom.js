#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 node
// How `backroom` and `npm start` launch the app. glibc raises its mmap threshold (default 128 KB)
// each time a larger block it mapped is freed: reading the bundle's largest chunk at start-up does
// that, and the buffers of every later response then stay in its arenas once freed. Holding the
// threshold where it starts keeps about 10 MB less resident with 10,000 shifts loaded
// (scripts/bench-ui.mjs, "resident memory"), at no cost to start-up. Ignored where glibc is not
// the C library; `node bin/backroom.js` runs the same app without it.
import "../dist/backroom.mjs";
