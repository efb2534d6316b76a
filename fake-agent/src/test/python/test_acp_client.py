import json, os, subprocess, tempfile, unittest

AGENT = os.environ["CURSOR_AGENT"]  # fake-agent/bin/cursor-agent


class AcpSession:
    """A minimal ACP client: JSON-RPC lines on the agent's stdin and stdout."""

    def __init__(self, tape, *options):
        env = dict(os.environ, AGENTDOUBLE_TAPE="builtin:" + tape, AGENTDOUBLE_TIMING="fast")
        self.errors = tempfile.TemporaryFile()  # the agent's stderr
        self.proc = subprocess.Popen([AGENT, *options, "acp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errors, env=env, text=True)
        self.last_id = 0
        self.updates = []

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params, answer="allow-once"):
        self.last_id += 1
        self.send({"jsonrpc": "2.0", "id": self.last_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("the agent exited with %s" % self.proc.wait(timeout=30))
            message = json.loads(line)
            if message.get("method") == "session/update":
                self.updates.append(message["params"]["update"])
            elif message.get("method") == "session/request_permission":
                outcome = {"outcome": "selected", "optionId": answer}
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": {"outcome": outcome}})
            elif message.get("id") == self.last_id:
                return message

    def stderr(self):
        self.errors.seek(0)
        return self.errors.read().decode()

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)

    def end(self):
        """Ends the agent, whatever the test left it doing, and closes its pipes."""
        self.proc.kill()
        self.proc.wait(timeout=30)
        for pipe in (self.proc.stdin, self.proc.stdout, self.errors):
            pipe.close()


class AcpClientTest(unittest.TestCase):
    def open(self, tape, *options):
        session = AcpSession(tape, *options)
        self.addCleanup(session.end)
        session.request("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        session.request("authenticate", {"methodId": "cursor_login"})
        created = session.request("session/new", {"cwd": os.getcwd(), "mcpServers": []})
        session.id = created["result"]["sessionId"]
        return session

    def prompt(self, session, text, **answer):
        params = {"sessionId": session.id, "prompt": [{"type": "text", "text": text}]}
        return session.request("session/prompt", params, **answer)

    def test_a_rejected_command_fails_and_the_turn_goes_on(self):
        session = self.open("tool-shell")
        done = self.prompt(session, "Run the tests", answer="reject-once")
        self.assertEqual(done["result"]["stopReason"], "end_turn")
        statuses = [u["status"] for u in session.updates if u["sessionUpdate"] == "tool_call_update"]
        self.assertEqual(statuses, ["in_progress", "failed"])
        self.assertEqual(session.close(), 0)

    def test_the_usage_limit_fails_the_prompt(self):
        session = self.open("usage-limit")
        failed = self.prompt(session, "Refactor the checkout flow")
        self.assertEqual(failed["error"]["code"], -32603)
        self.assertIn("You've hit your usage limit", failed["error"]["data"]["details"])
        self.assertIn("You've hit your usage limit", session.stderr())  # written there too

    def test_a_crash_mid_turn_ends_the_agent(self):
        session = self.open("killed-mid-tool-call", "--force")
        with self.assertRaises(EOFError):
            self.prompt(session, "Run the tests")
        self.assertEqual(session.proc.returncode, -9)  # SIGKILL, as Python says it


if __name__ == "__main__":
    unittest.main()
