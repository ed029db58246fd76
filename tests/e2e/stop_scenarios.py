# SPDX-License-Identifier: MIT
"""Stopping `relaydesk serve` answers what it owes (docs/behaviour.md §8.1).

A SIGTERM while long polls wait: every one of them is answered (an empty
receive, as when its wait ends) before the process exits with status 0; no
client sees its connection dropped. Under the virtual clock the polls would
otherwise wait until the clock moves, so nothing but the stop can end them.
RELAYDESK_BINARY names the binary.
"""
import signal
import threading
import unittest

import botocore

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
POLLS = 30


class StopScenarios(unittest.TestCase):
    def test_sigterm_answersEveryWaitingLongPoll(self):
        server = RelaydeskServer(BINARY).__enter__()
        try:
            url = server.client("sqs").create_queue(QueueName="waiting")["QueueUrl"]
            answers, failures = [], []

            def poll():
                client = server.client("sqs")  # one per thread (botocore's default read timeout: 60 s)
                try:
                    answers.append(client.receive_message(QueueUrl=url, WaitTimeSeconds=20))
                except Exception as error:  # what the test reports: the connection dropped
                    failures.append(repr(error))

            threads = [threading.Thread(target=poll) for _ in range(POLLS)]
            for thread in threads:
                thread.start()
            server.await_waiting_receives("waiting", POLLS)
            server.process.send_signal(signal.SIGTERM)
            status = server.process.wait(timeout=60)
            for thread in threads:
                thread.join(timeout=60)
            self.assertEqual(status, 0, server.process.stderr.read())
            self.assertEqual(failures, [])
            self.assertEqual(len(answers), POLLS)
            for answer in answers:
                self.assertNotIn("Messages", answer)
        finally:
            if server.process.poll() is None:
                server.process.kill()
                server.process.wait()
            server.process.stdout.close()
            server.process.stderr.close()


if __name__ == "__main__":
    print("boto3 with botocore", botocore.__version__)
    unittest.main(verbosity=2)
