# SPDX-License-Identifier: MIT
"""RelaydeskContainer: the relaydesk image (installer/dev.sh image) as a Testcontainers
container for Python tests (docs/harness.md "In CI and containers").

    with RelaydeskContainer(clock="virtual") as relaydesk:
        sqs = boto3.client("sqs", endpoint_url=relaydesk.sqs_endpoint(), ...)
        relaydesk.advance(30)          # a 30 s visibility timeout passes, now

start() returns once GET /health answers 200 (the broker listens, its database is open).
The endpoints are the host's mapped ports: SQS and SNS are the HTTP port's root, Zaqar v2 is
under /v2 of the same root, Service Bus is AMQP 1.0 on the mapped 5672 with the official
emulator's connection string. The database is in the container: each container starts empty
and the data goes with it.

The image: the argument, else $RELAYDESK_IMAGE, else IMAGE (the tag dev.sh image gives,
relaydesk:PROJECT_VERSION). Any other `serve` option: with_option("jitter", "0"), which sets
RELAYDESK_JITTER (behaviour.md §8.1: every option from RELAYDESK_<OPTION>).
"""
import json
import os
import urllib.request

from testcontainers.core.container import DockerContainer
from testcontainers.core.wait_strategies import HttpWaitStrategy

# What installer/image/build_image.sh tags: relaydesk:<the .deb's version> (CMakeLists.txt's VERSION).
IMAGE = "relaydesk:0.1.0"
HTTP_PORT = 9911   # SQS, SNS, Zaqar, the native API (/api/v1)
AMQP_PORT = 5672   # Azure Service Bus
SERVICEBUS_KEY = "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true"


class RelaydeskContainer(DockerContainer):
    """relaydesk serve in a container; clock is "real", "scaled" or "virtual" (harness.md, The clock)."""

    def __init__(self, image=None, clock="real", startup_timeout=60, **kwargs):
        super().__init__(image or os.environ.get("RELAYDESK_IMAGE") or IMAGE, **kwargs)
        self.clock = clock
        self.with_exposed_ports(HTTP_PORT, AMQP_PORT)
        self.with_option("clock", clock)
        self.waiting_for(HttpWaitStrategy(HTTP_PORT, "/health").for_status_code(200)
                         .with_startup_timeout(startup_timeout))

    def with_option(self, name, value):
        """A `serve` option by its long name (without --): RELAYDESK_<NAME> in the container."""
        return self.with_env("RELAYDESK_" + name.upper().replace("-", "_"), str(value))

    def http_endpoint(self):
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(HTTP_PORT)}"

    def sqs_endpoint(self):
        """The SQS endpoint (JSON and query protocols): an AWS SDK's endpoint_url."""
        return self.http_endpoint()

    def sns_endpoint(self):
        """The SNS endpoint (query protocol): an AWS SDK's endpoint_url."""
        return self.http_endpoint()

    def zaqar_endpoint(self):
        """The Zaqar service root (the v2 API is under /v2), as a Zaqar client's url."""
        return self.http_endpoint()

    def servicebus_connection_string(self):
        """The official emulator's connection string, which the Azure Service Bus SDKs take."""
        return f"Endpoint=sb://{self.get_container_host_ip()}:{self.get_exposed_port(AMQP_PORT)};{SERVICEBUS_KEY}"

    def advance(self, seconds):
        """Moves the virtual clock on by seconds; returns once everything due has happened
        (api.md, Clock). Only with clock="virtual": otherwise a ValueError, and nothing changes."""
        if self.clock != "virtual":
            raise ValueError(f"advance needs clock=\"virtual\"; this container's clock is {self.clock!r}")
        request = urllib.request.Request(self.http_endpoint() + "/api/v1/clock/advance", method="POST",
                                         data=json.dumps({"seconds": seconds}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as reply:
            return json.load(reply)
