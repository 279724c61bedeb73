"""One HTTP request from inside a network namespace: run as `ip netns exec NAME python3
lan_client.py JSON`, where JSON names method, url, headers, body (text) and cafile; prints
{status, headers, body} as JSON. It is the client that is not on the server's machine."""
import json
import ssl
import sys
import urllib.error
import urllib.request

ask = json.loads(sys.argv[1])
request = urllib.request.Request(ask["url"], method=ask.get("method", "GET"), headers=ask.get("headers", {}),
                                 data=ask["body"].encode() if ask.get("body") is not None else None)
context = ssl.create_default_context(cafile=ask["cafile"]) if ask.get("cafile") else None


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=context))
try:
    response = opener.open(request, timeout=30)
except urllib.error.HTTPError as error:
    response = error
print(json.dumps({"status": response.status, "headers": dict(response.headers.items()),
                  "body": response.read().decode("utf-8", "replace")}))
