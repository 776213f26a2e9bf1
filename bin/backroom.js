#!/usr/bin/env node
import "../dist/backroom.js";
