#!/usr/bin/env python3
# A stand-in for the streamsafe driver that finds nothing: check_streamsafe.py
# must notice that it disagrees with the plugin.
