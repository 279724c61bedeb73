"""A network namespace joined to this one by a veth pair: the tests' other devices on a LAN.

Its IPv4 /24 is one that no address or route of this machine touches. A fixed one is not safe:
a CI machine's own network may be anywhere in 10.0.0.0/8, and where it shares the veth's /24 the
kernel sends the replies to the namespace out of the machine's real interface instead, so every
request from the namespace times out and every connection to it is refused by someone else."""
import ipaddress
import json
import os
import subprocess


def networks_in_use():
    """Every IPv4 network this machine has an address on or a route to, in any table."""
    def ip(*arguments):
        return json.loads(subprocess.run(["ip", "-j", "-4", *arguments], check=True, capture_output=True, text=True).stdout or "[]")
    used = []
    for route in ip("route", "show", "table", "all"):
        if route.get("dst", "default") != "default":
            used.append(ipaddress.ip_network(route["dst"], strict=False))
    for link in ip("addr"):
        for address in link.get("addr_info", []):
            used.append(ipaddress.ip_network(f"{address['local']}/{address['prefixlen']}", strict=False))
    return used


def free_network():
    """A /24 in 10.200.0.0/13 that overlaps nothing in use here."""
    used = networks_in_use()
    for candidate in ipaddress.ip_network("10.200.0.0/13").subnets(new_prefix=24):
        if not any(candidate.overlaps(network) for network in used):
            return candidate
    raise RuntimeError("every /24 in 10.200.0.0/13 is in use on this machine: no room for a test LAN")


class VethNamespace:
    """The namespace `cameraroll-<role>-<pid>`, its side of the pair holding `client_hosts` of
    `network`, this side `.1` of it (`server_address`); `ipv6` are (this side's, the namespace's
    addresses) with prefixes, added without duplicate detection so that they answer at once."""

    def __init__(self, role, tag, client_hosts=(2,), ipv6=((), ())):
        suffix = os.getpid() % 100000
        self.name = f"cameraroll-{role}-{suffix}"
        self.host_side, client_side = f"cr{tag}h{suffix}", f"cr{tag}c{suffix}"
        self.network = free_network()
        self.server_address = str(self.network[1])
        self.client_addresses = [str(self.network[host]) for host in client_hosts]
        host_ipv6, client_ipv6 = ipv6
        # One left by a run of this process's number that was killed before it cleaned up.
        self.remove()
        host = ([f"link add {self.host_side} type veth peer name {client_side}", f"link set {client_side} netns {self.name}",
                 f"addr add {self.server_address}/24 dev {self.host_side}"]
                + [f"addr add {address} dev {self.host_side} nodad" for address in host_ipv6]
                + [f"link set {self.host_side} up"])
        # No link-local address of the kernel's own: it would appear a second or so after the link
        # comes up (duplicate detection), and Chromium, seeing an address change, fails the page it
        # is loading with ERR_NETWORK_CHANGED.
        client = ([f"link set {client_side} addrgenmode none"]
                  + [f"addr add {address}/24 dev {client_side}" for address in self.client_addresses]
                  + [f"addr add {address} dev {client_side} nodad" for address in client_ipv6]
                  + [f"link set {client_side} up", "link set lo up"])
        try:
            subprocess.run(["ip", "netns", "add", self.name], check=True, capture_output=True)
            subprocess.run(["ip", "-batch", "-"], input="\n".join(host), text=True, check=True, capture_output=True)
            subprocess.run(["ip", "-n", self.name, "-batch", "-"], input="\n".join(client), text=True, check=True,
                           capture_output=True)
        except subprocess.CalledProcessError as error:
            self.remove()
            raise RuntimeError(f"setting up the test LAN {self.network}: {error.cmd}: {error.stderr}") from error

    def run(self, command, **options):
        """`command` inside the namespace (subprocess.run's options)."""
        return subprocess.run(["ip", "netns", "exec", self.name, *command], **options)

    def popen(self, command, **options):
        return subprocess.Popen(["ip", "netns", "exec", self.name, *command], **options)

    def remove(self):
        # Deleting the namespace deletes the veth pair with it; the link too in case it never moved.
        for command in (["netns", "del", self.name], ["link", "del", self.host_side]):
            subprocess.run(["ip", *command], capture_output=True)
