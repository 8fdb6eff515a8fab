"""Network I/O behind one seam: the httpx client and transports, per-host throttle,
robots.txt, the polite fetch, and HAR record/replay."""
