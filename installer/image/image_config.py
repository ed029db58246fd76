#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the image config (Docker's image format, application/vnd.docker.container.image.v1+json)
of the relaydesk image: what build_image.sh's one layer runs as, and how.

    image_config.py --version V --epoch SECONDS --layer-digest sha256:HEX --deb FILE

The same arguments give the same bytes (sorted keys, no whitespace, times from --epoch):
the image id is this file's digest. Docker's format rather than OCI's because only
Docker's has the health check (config.Healthcheck), which docker and podman both run.
"""
import argparse
import datetime
import json

# Ports (docs/behaviour.md §8.1): HTTP (SQS, SNS, Zaqar, native API), AMQP and AMQPS
# (Service Bus), the Service Bus management port.
PORTS = (9911, 5672, 5671, 5300)
VOLUME = "/var/lib/relaydesk"
SECOND = 1_000_000_000  # the health check's durations are nanoseconds


def config(version, epoch, layer_digest, deb):
    created = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "architecture": "amd64",
        "os": "linux",
        "created": created,
        "config": {
            "User": "relaydesk",
            "WorkingDir": VOLUME,
            "Env": [
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "HOME=" + VOLUME,
                # serve's options from the environment (RELAYDESK_<OPTION>): the database in the volume.
                "RELAYDESK_DB=" + VOLUME + "/relaydesk.db",
            ],
            # serve is PID 1: it handles SIGTERM/SIGINT itself and starts no children (no init needed).
            "Entrypoint": ["relaydesk", "serve", "--bind", "0.0.0.0"],
            "Cmd": [],
            "ExposedPorts": {f"{port}/tcp": {} for port in PORTS},
            "Volumes": {VOLUME: {}},
            "StopSignal": "SIGTERM",
            "Healthcheck": {
                "Test": ["CMD", "/usr/local/bin/relaydesk-healthcheck"],
                "Interval": 5 * SECOND,
                "Timeout": 5 * SECOND,
                "StartPeriod": 5 * SECOND,
                "Retries": 3,
            },
            "Labels": {
                "org.opencontainers.image.title": "relaydesk",
                "org.opencontainers.image.description": "relaydesk serve: SQS, SNS, Zaqar v2 and Azure Service Bus on one broker",
                "org.opencontainers.image.version": version,
                "org.opencontainers.image.created": created,
                "org.opencontainers.image.licenses": "MIT",
            },
        },
        "rootfs": {"type": "layers", "diff_ids": [layer_digest]},
        "history": [{
            "created": created,
            "created_by": f"installer/image/build_image.sh: Debian 12 minbase (packages.lock) + {deb}",
        }],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--version", required=True)
    parser.add_argument("--epoch", type=int, required=True)
    parser.add_argument("--layer-digest", required=True)
    parser.add_argument("--deb", required=True)
    args = parser.parse_args()
    print(json.dumps(config(args.version, args.epoch, args.layer_digest, args.deb),
                     sort_keys=True, separators=(",", ":")), end="")


if __name__ == "__main__":
    main()
