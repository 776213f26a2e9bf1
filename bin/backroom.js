#!/usr/bin/env node
import "../dist/backroom.mjs";
