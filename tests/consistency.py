#!/usr/bin/env python3
# The trace as evidence (issue 19), written from arbiter-result(5), not from
# the code: over every casebook case with a result and over random turns of
# every rule system (tests/prop), the result (-t), the JSON Lines trace
# (--trace-file) and the text trace (--trace-file --text) agree:
#   - the JSON Lines trace is the result's trace, event for event;
#   - the text trace says the same, line for line, member for member
#     (a neutral owner is "-" there and null in JSON);
#   - every event naming an order names its player (player, KEY_player),
#     and that order, of that player, is in the result; every unit and
#     player an event names is known to the result;
#   - every order has one ruling event, the result's status, reason, rule
#     and message (so every failed order's cause is in the trace);
#   - each order's cost is the sum of the cost parts of its events, and
#     the points paid by each player add up;
#   - every ownership and loyalty change, loss, elimination, destroyed
#     feature and die roll is in both, one for one and in order;
#   - every event kind and member is documented in arbiter-result(5)'s
#     Trace for its rule system;
#   - a morne-plaine move done with zoc_stop has its zoc event where the
#     zone cut its path, before any charge, and every zoc event stands
#     where the steps ended or a charge put the unit (issue 26);
#   - --check gives every order the run's status (legal for done), reason
#     and rule (but in territory, whose check stops before the moves, and
#     where the check says an outcome depends on dice it may not show);
#     a territory check's trace has only turn, route (for an order given
#     by its destination, before its ruling) and ruling events;
#   - arcane-legions: a snap event's push is 0 but for an edge snap, and
#     the snaps tried in the trace are the result's candidates tried,
#     object for object;
#   - every member of an event is in that event's entry for its rule
#     system (or aeonis's, for the events it has "as above");
#   - territory: each arrive event's why is what the owner of the
#     territory, followed through the owner events, and the step's
#     invasions and other arrivals say it is (own, neutral, invasion).
# Usage: consistency.py TOP ARBITER PROP [N]  (N random turns a rule system)
# Prints "not ok" lines and ends "consistency: N passed, N failed".
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP, ARB, PROP = [os.path.abspath(a) for a in sys.argv[1:4]]
N = int(sys.argv[4]) if len(sys.argv) > 4 else 20
SYSTEMS = ["aeonis", "territory", "morne-plaine", "xconq", "arcane-legions"]


def man_trace_docs():
    """The Cm words of arbiter-result(5)'s Trace, by rule system: aeonis
    first, whose events the others have "as above"."""
    text = open(os.path.join(TOP, "man/arbiter-result.5")).read()
    sec = text[text.index(".Ss Trace"):text.index(".Sh EXAMPLES")]
    cuts = [(0, "aeonis")]
    for rs in SYSTEMS[1:]:
        m = re.search(r"^\.Cm %s\nturn has" % re.escape(rs), sec, re.M)
        assert m, rs
        cuts.append((m.start(), rs))
    cuts.sort()
    docs = {}
    items = {}
    for i, (at, rs) in enumerate(cuts):
        end = cuts[i + 1][0] if i + 1 < len(cuts) else len(sec)
        words = set()
        # The members of each event of the rule system's list (.It Cm
        # EV), its item's words up to the next item or the list's end.
        evs, item = [], None
        items[rs] = {}
        for line in sec[at:end].splitlines():
            new = set()
            if line.startswith(".Cm"):
                # .Cm x1 , y1 , x2 : every argument
                for w in line.split()[1:]:
                    if re.fullmatch(r"[a-z_0-9-]+", w):
                        new.add(w)
            elif line.startswith(".It Cm"):
                evs = re.findall(r"Cm ([A-Za-z_0-9]+)", line)
                words |= set(evs)
                item = set()
                for ev in evs:
                    items[rs][ev] = item
                continue
            elif line.startswith(".El"):
                evs, item = [], None
            elif line.startswith("."):
                # .Pq Cm chosen_by and the like
                new |= set(re.findall(r"Cm ([a-z_0-9]+)", line))
            words |= new
            if item is not None:
                item |= new
        docs[rs] = words
    # The members every event may have, said before the lists.
    common = set(re.findall(r"Cm ([A-Za-z_0-9]+)", sec[:sec.index(
        ".Bl -tag")]))
    return docs, common, items


DOCS, COMMON, ITEMS = man_trace_docs()


def event_members(rs, ev):
    """The members arbiter-result(5) gives event ev of rule system rs:
    its item in the rule system's list, or aeonis's (the events "as
    above"); with "order", its "player"; None where the event is told in
    prose, not as an item (xconq's)."""
    item = ITEMS[rs].get(ev)
    if item is None:
        item = ITEMS["aeonis"].get(ev)
    if item is None:
        return None
    m = set(item) | {"ev"}
    if "order" in m:
        m.add("player")
    m |= {k + "_player" for k in m if k == "chosen_by"}
    return m
SCHEMA_EVS = set(json.load(open(os.path.join(
    TOP, "schema/result.schema.json")))["properties"]["trace"]["items"][
    "properties"]["ev"]["enum"])


def parse_text_line(line):
    m = re.match(r"([a-z_]+):(.*)$", line)
    if not m:
        return None
    ev = {"ev": m.group(1)}
    rest = m.group(2)
    i = 0
    while i < len(rest):
        if rest[i] != " ":
            return None
        j = rest.index("=", i)
        key = rest[i + 1:j]
        i = j + 1
        if i < len(rest) and rest[i] == '"':
            i += 1
            out = []
            while rest[i] != '"':
                if rest[i] == "\\":
                    c = rest[i + 1]
                    if c == "u":
                        out.append(chr(int(rest[i + 2:i + 6], 16)))
                        i += 6
                        continue
                    out.append({"n": "\n", "t": "\t"}.get(c, c))
                    i += 2
                    continue
                out.append(rest[i])
                i += 1
            i += 1
            ev[key] = ("s", "".join(out))
        else:
            j = rest.find(" ", i)
            j = len(rest) if j < 0 else j
            ev[key] = ("w", rest[i:j])
            i = j
    return ev


def text_matches(tev, jev):
    if tev is None or list(tev.keys()) != list(jev.keys()):
        return False
    for k, v in jev.items():
        if k == "ev":
            continue
        kind, s = tev[k]
        if v is None:
            ok = kind == "w" and s == "-"
        elif isinstance(v, bool):
            ok = kind == "w" and s == ("yes" if v else "no")
        elif isinstance(v, int):
            ok = kind == "w" and s == str(v)
        elif isinstance(v, float):
            ok = kind == "w" and abs(float(s) - v) < 1e-9
        else:
            ok = s == v and (kind == "s" or s not in ("-", ""))
        if not ok:
            return False
    return True


def territory_arrivals(res, jl):
    """arbiter-result(5), Trace, arrive: why "own" for a territory the
    player owns as the armies arrive (also when another of its orders
    claimed it a moment before, in the same step); "neutral" for a
    neutral territory no other player's armies enter in the step (the
    survivors of a skirmish won there included); "invasion" for a
    territory the player's invasion has just neutralized.  The owners
    are followed through the owner events, from the result's cells at
    the end back to the start."""
    bad = []
    owner = {c["cell"]: c["owner"] for c in res.get("cells", [])}
    for e in reversed([e for e in jl if e["ev"] == "owner"]):
        owner[e["cell"]] = e["from"]
    step = 0
    entered = {}
    for e in jl:
        if e["ev"] == "step":
            step = e["step"]
        elif e["ev"] == "arrive":
            entered.setdefault((step, e["to"]), set()).add(e["player"])
    step = 0
    invading = {}       # target: attacker, from its invasion event
    neutralized = {}    # target: attacker, once it fell neutral
    for e in jl:
        if e["ev"] == "step":
            step = e["step"]
            invading, neutralized = {}, {}
        elif e["ev"] == "invasion":
            invading[e["target"]] = e["attacker"]
        elif e["ev"] == "owner":
            if e["why"] == "neutralized" and e["cell"] in invading:
                neutralized[e["cell"]] = invading[e["cell"]]
            owner[e["cell"]] = e["to"]
        elif e["ev"] == "arrive":
            c, p, why = e["to"], e["player"], e["why"]
            if why == "own":
                ok = owner.get(c) == p
            elif why == "neutral":
                ok = owner.get(c) is None and c not in neutralized and \
                    entered[(step, c)] == {p}
            elif why == "invasion":
                ok = owner.get(c) is None and neutralized.get(c) == p
            else:
                ok = False
            if not ok:
                bad.append("arrive of %s %s in %s (step %d): why %s, but "
                           "the owner is %s" % (p, e["order"], c, step,
                                                why, owner.get(c)))
    return bad


def territory_check_trace(res):
    """arbiter-result(5), Trace: a territory check moves nothing; its
    trace has the turn event and then, for each order as it is
    validated, a route event when the order gives its destination, and
    its ruling."""
    bad = []
    tos = {(o["player"], o["id"]) for o in res["orders"] if "to" in o}
    ruled = set()
    for e in res.get("trace", []):
        if e["ev"] not in ("turn", "route", "ruling"):
            bad.append("--check: territory trace has a %s event" % e["ev"])
            continue
        key = (e.get("player"), e.get("order"))
        if e["ev"] == "route" and (key not in tos or key in ruled):
            bad.append("--check: route event of %s %s, which gives no "
                       "destination or is ruled already" % key)
        if e["ev"] == "ruling":
            ruled.add(key)
    return bad


def arcane_snaps(res, jl):
    """arbiter-result(5): a snap event's push is 0 but for an edge snap;
    the snaps an order's trace shows tried (against the object of the
    overlap or contact event before them) are the candidates its result
    lists as tried, with their objects, one for one."""
    bad = []
    traced = {}
    obj = {}
    for e in jl:
        key = (e.get("player"), e.get("order"))
        if e["ev"] in ("overlap", "contact"):
            obj[key] = e["object"]
        elif e["ev"] == "snap":
            if e["how"] != "edge" and e["push"] != 0:
                bad.append("%s %s: a %s snap with push %s" %
                           (key[0], key[1], e["how"], e["push"]))
            traced.setdefault(key, []).append(
                (obj.get(key), e["how"], e["sense"], e["angle"],
                 e["pivot_x"], e["pivot_y"], e["made"], e["blocked_by"]))
    for o in res["orders"]:
        key = (o["player"], o["id"])
        listed = []
        for m in o.get("maneuvers", []):
            for c in m.get("snap", {}).get("candidates", []):
                if c["tried"]:
                    listed.append((c.get("object"), c["how"], c["sense"],
                                   c["angle"], c["pivot"][0],
                                   c["pivot"][1], c["made"],
                                   c.get("blocked_by", "")))
        if sorted(listed, key=repr) != sorted(traced.get(key, []),
                                              key=repr):
            bad.append("%s %s: snaps tried %s in the result, %s in the "
                       "trace" % (key[0], key[1], listed,
                                  traced.get(key, [])))
    return bad


def check(res, jl, txt):
    """Returns a list of faults."""
    bad = []
    rs = res["ruleset"]
    trace = res.get("trace")
    if trace is not None and trace != jl:
        bad.append("the JSON Lines trace is not the result's trace")
    lines = txt.splitlines()
    if len(lines) != len(jl):
        bad.append("text trace: %d lines for %d events" % (len(lines),
                                                           len(jl)))
    else:
        for n, (ln, ev) in enumerate(zip(lines, jl)):
            if not text_matches(parse_text_line(ln), ev):
                bad.append("text trace line %d differs: %s" % (n + 1, ln))
                break
    # Documented, for this rule system.
    words = DOCS["aeonis"] | DOCS[rs] | COMMON
    for ev in jl:
        for k in ev:
            if k == "ev":
                continue
            if k not in words:
                bad.append("member %s of event %s not documented for %s"
                           % (k, ev["ev"], rs))
        if ev["ev"] not in words:
            bad.append("event %s not documented for %s" % (ev["ev"], rs))
        # Documented for that event: a rule system's event of the same
        # name as another's has its own members.
        mem = event_members(rs, ev["ev"])
        if mem is not None:
            for k in ev:
                if k not in mem:
                    bad.append("member %s of event %s not in its entry for "
                               "%s" % (k, ev["ev"], rs))
        if ev["ev"] not in SCHEMA_EVS:
            bad.append("event %s not in the result's schema" % ev["ev"])
    # Names.
    orders = {(o["player"], o["id"]): o for o in res["orders"]}

    # Every order the result names elsewhere comes with its player, and
    # is one of the result's orders.
    def named(x):
        if isinstance(x, dict):
            for k, pk in (("order", "order_player"),
                          ("at_order", "at_order_player")):
                if k in x and x is not None and isinstance(x[k], str) and \
                        "index" not in x and "ev" not in x:
                    # An attack names its order's player "player".
                    who = x.get(pk, x.get("player") if "defenders" in x
                                else None)
                    if (who, x[k]) not in orders:
                        bad.append("the result names order %s without "
                                   "its player, or one not in orders" %
                                   x[k])
            if "breakaway_players" in x:
                for o, p in zip(x.get("breakaways", []),
                                x["breakaway_players"]):
                    if (p, o) not in orders:
                        bad.append("breakaway %s of %s not in orders" %
                                   (o, p))
            for k, v in x.items():
                if k not in ("orders", "trace") or not isinstance(v, list):
                    named(v)
                else:
                    for o in v:
                        for kk, vv in o.items():
                            named(vv)
        elif isinstance(x, list):
            for v in x:
                named(v)
    named(res)
    players = set(res.get("players", {}).keys()) | {o["player"] for o in
                                                     res["orders"]}
    units = {u["id"] for u in res.get("units", [])}
    for ev in jl:
        for k in list(ev):
            if k == "order" or k == "chosen_by" and ev[k] != "rule":
                pk = "player" if k == "order" else k + "_player"
                if pk not in ev:
                    bad.append("event %s names order %s without its player"
                               % (ev["ev"], ev[k]))
                elif (ev[pk], ev[k]) not in orders:
                    bad.append("event %s names order %s of %s, not in the "
                               "result" % (ev["ev"], ev[k], ev[pk]))
            if k.endswith("player") and isinstance(ev[k], str) and \
                    ev[k] not in players:
                bad.append("event %s names player %s, unknown" %
                           (ev["ev"], ev[k]))
            if k == "unit" and units and ev[k] not in units:
                bad.append("event %s names unit %s, unknown" % (ev["ev"],
                                                               ev[k]))
    # Rulings.
    rulings = {}
    for ev in jl:
        if ev["ev"] == "ruling":
            key = (ev["player"], ev["order"])
            if key in rulings:
                bad.append("two ruling events for %s %s" % key)
            rulings[key] = ev
    for key, o in orders.items():
        ev = rulings.get(key)
        if ev is None:
            bad.append("no ruling event for %s %s" % key)
            continue
        for k in ("status", "reason", "message"):
            if ev[k] != o.get(k, ""):
                bad.append("ruling event of %s %s: %s %r, result %r" %
                           (key[0], key[1], k, ev[k], o.get(k)))
        if ev["rule"] != (o.get("rule") or ""):
            bad.append("ruling event of %s %s: rule %r, result %r" %
                       (key[0], key[1], ev["rule"], o.get("rule")))

    def of(kind, key):
        return [e for e in jl if e["ev"] == kind and
                (e.get("player"), e.get("order")) == key]

    # Costs, from their parts.
    for key, o in orders.items():
        if o["status"] not in ("done", "legal", "failed"):
            continue
        if rs == "aeonis" and "cost" in o:
            # A failed order's cost is its price, not paid.
            pay = of("pay", key)
            paid = o["cost"] if o["status"] != "failed" else 0
            if sum(e["ap"] for e in pay) != paid:
                bad.append("%s %s: cost %d, paid %d in the trace" %
                           (key[0], key[1], o["cost"],
                            sum(e["ap"] for e in pay)))
            steps = of("step", key) + of("hop", key)
            if o["kind"] == "move" and sum(e["cost"] for e in steps) != \
                    o["cost"]:
                bad.append("%s %s: cost %d, its steps %d" %
                           (key[0], key[1], o["cost"],
                            sum(e["cost"] for e in steps)))
        if rs == "morne-plaine" and "cost" in o:
            s = sum(e["cost"] for e in of("step", key))
            if s != o["cost"]:
                bad.append("%s %s: cost %d, its steps %d" %
                           (key[0], key[1], o["cost"], s))
        if rs == "arcane-legions" and "mp" in o and "mp_left" in o:
            s = sum(e["cost"] for e in of("step", key) +
                    of("turn_cost", key))
            if s != o["mp"] - o["mp_left"]:
                bad.append("%s %s: spent %d mp, its steps and turns %d" %
                           (key[0], key[1], o["mp"] - o["mp_left"], s))
            for m in o.get("maneuvers", []):
                if not m["made"] and m["cost"] != 0:
                    bad.append("%s %s: maneuver %d not made costs %d" %
                               (key[0], key[1], m["index"], m["cost"]))
        if rs == "xconq" and "actions" in o:
            acts = of("action", key)
            if [a["cost"] for a in o["actions"]] != [a["cost"] for a in
                                                     acts]:
                bad.append("%s %s: action costs differ" % key)
            parts = []
            for e in jl:
                if (e.get("player"), e.get("order")) != key:
                    continue
                if e["ev"] == "part":
                    parts.append(e)
                elif e["ev"] == "action":
                    b = sum(p["mp"] for p in parts if p["part"] == "border")
                    c = sum(p["mp"] for p in parts if p["part"] ==
                            "coating")
                    zs = [p for p in parts if p["part"] == "zoc"]
                    if b != e["borders"] or c != e["coatings"]:
                        bad.append("%s %s: action to %s: parts %d+%d, "
                                   "event %d+%d" % (key[0], key[1],
                                                    e["to"], b, c,
                                                    e["borders"],
                                                    e["coatings"]))
                    if e["leave"] + e["enter"] + b + c != e["normal"]:
                        bad.append("%s %s: action to %s: normal %d is not "
                                   "its parts" % (key[0], key[1], e["to"],
                                                  e["normal"]))
                    cost = e["clamped"] + e["zoc_max"] + e["world"]
                    if e["world"] > 0 or e["kind"] == "leave_world":
                        cost = max(cost, 1)
                    if cost != e["cost"]:
                        bad.append("%s %s: action to %s: cost %d, parts %d"
                                   % (key[0], key[1], e["to"], e["cost"],
                                      cost))
                    if e["zoc_max"] > 0 and not zs:
                        bad.append("%s %s: action to %s: zoc_max with no "
                                   "zone" % (key[0], key[1], e["to"]))
                    parts = []
    if rs == "morne-plaine":
        bad += morne_zones(res, jl)
    # Points paid per player.
    pl = res.get("players", {})
    if rs == "aeonis":
        for p, v in pl.items():
            ap = sum(e["ap"] for e in jl if e["ev"] == "pay" and
                     e.get("player") == p)
            mana = sum(e["mana"] for e in jl if e["ev"] == "pay" and
                       e.get("player") == p)
            if (ap, mana) != (v["ap_spent"], v["mana_spent"]) or \
                    v["ap"] - v["ap_spent"] != v["ap_left"] or \
                    v["mana"] - v["mana_spent"] != v["mana_left"]:
                bad.append("player %s: points do not add up" % p)
    if rs == "arcane-legions":
        for p, v in pl.items():
            op = sum(e["cost"] for e in jl if e["ev"] == "order_points" and
                     e.get("player") == p)
            if op != v["order_points_spent"] or v["order_points"] - \
                    v["order_points_spent"] != v["order_points_left"]:
                bad.append("player %s: order points do not add up" % p)
    if rs == "territory" and "cells" in res and "check" not in res:
        bad += territory_arrivals(res, jl)
    if rs == "arcane-legions":
        bad += arcane_snaps(res, jl)
    if rs == "territory" and "cells" in res and trace is not None:
        for p, v in pl.items():
            lost = sum(e["armies"] for e in jl if e["ev"] == "loss" and
                       e.get("player") == p)
            if lost != v["armies_lost"]:
                bad.append("player %s: lost %d, the trace %d" %
                           (p, v["armies_lost"], lost))
    # One for one, in order.
    def pairs(name, evs, items, fn):
        if len(evs) != len(items):
            bad.append("%s: %d in the result, %d in the trace" %
                       (name, len(items), len(evs)))
            return
        for e, r in zip(evs, items):
            if not fn(e, r):
                bad.append("%s: %s differs from %s" % (name, e, r))
                return

    def same_change(e, r):
        return e["cell"] == r["cell"] and e["from"] == r["from"] and \
            e["to"] == r["to"] and e["why"] == r["why"] and \
            e.get("order") == r.get("order") and \
            ("order" not in r or e.get("player") == r.get("order_player"))
    ev = lambda k: [e for e in jl if e["ev"] == k]
    if "check" in res:
        return bad      # a check's result lists no changes
    pairs("ownership", ev("owner"), res.get("ownership", []), same_change)
    pairs("loyalty", ev("loyalty"), res.get("loyalty", []), same_change)

    def same_loss(e, r):
        if "unit" in r:
            return e.get("unit") == r["unit"] and \
                e["strength"] == r["strength"] and e["cause"] == r["cause"]
        return e.get("player") == r["player"] and \
            e["armies"] == r["armies"] and e["cause"] == r["cause"] and \
            e.get("order") == r.get("order")
    pairs("losses", ev("loss"), res.get("losses", []), same_loss)
    # Eliminations: a unit eliminated in the result is one whose loss
    # event left it 0, and no other.
    gone = sorted(u["id"] for u in res.get("units", []) if
                  u.get("status") == "eliminated")
    zero = sorted(e["unit"] for e in ev("loss") if "unit" in e and
                  e["left"] == 0)
    if gone != zero:
        bad.append("eliminated %s in the result, %s in the trace" %
                   (gone, zero))
    pairs("destroyed", ev("destroyed"), res.get("destroyed", []),
          lambda e, r: e["cell"] == r["cell"] and
          e["feature"] == r["feature"])
    draws = res.get("dice", {}).get("draws", [])
    pairs("dice", [e for e in ev("roll") if "value" in e], draws,
          lambda e, r: (e["sides"], e["value"], e["why"]) ==
          (r["sides"], r["value"], r["why"]))
    return bad


def morne_zones(res, jl):
    """arbiter-result(5), zoc_stop and the zoc event: a move done (or
    legal) with zoc_stop went on after entering an enemy zone and was
    carried out up to that hex, so its trace has a zoc event there, after
    the steps and before any charge, with not_entered the hexes of the path
    it did not enter; every zoc event is where the unit's steps ended, or
    where a charge that did not hold put it, with that not_entered."""
    bad = []
    for o in res["orders"]:
        if o.get("kind") != "move" or "path" not in o:
            continue
        key = (o["player"], o["id"])
        evs = [e for e in jl if (e.get("player"), e.get("order")) == key]
        steps = [i for i, e in enumerate(evs) if e["ev"] == "step"]
        zocs = [i for i, e in enumerate(evs) if e["ev"] == "zoc"]
        charges = [i for i, e in enumerate(evs) if e["ev"] == "charge"]
        left = len(o["path"]) - 1 - len(steps)
        last = evs[steps[-1]]["to"] if steps else None
        if o["status"] in ("done", "legal") and o["reason"] == "zoc_stop":
            first = [i for i in zocs if evs[i]["at"] == last]
            if not first:
                bad.append("%s %s: zoc_stop, its path cut at %s, but no "
                           "zoc event there" % (key[0], key[1], last))
            elif charges and first[0] > charges[0]:
                bad.append("%s %s: the zone that cut the path is traced "
                           "after the charge" % key)
        for i in zocs:
            e = evs[i]
            moved = [evs[c]["at"] for c in charges if c < i and
                     evs[c].get("held") is False]
            if e["at"] != last and e["at"] not in moved:
                bad.append("%s %s: zoc event at %s, where its steps did "
                           "not end nor a charge put it" % (key[0], key[1],
                                                           e["at"]))
            if e["not_entered"] != left:
                bad.append("%s %s: zoc event: not_entered %d, the path "
                           "left %d hexes" % (key[0], key[1],
                                              e["not_entered"], left))
    return bad


def run(d, args, files):
    tmp = tempfile.mkdtemp()
    try:
        j = os.path.join(tmp, "t.jsonl")
        t = os.path.join(tmp, "t.txt")
        p = subprocess.run([ARB] + args + ["-t", "--trace-file", j,
                                           "map.json"] + files, cwd=d,
                           capture_output=True)
        if p.returncode not in (0, 1):
            return None, "exit status %d" % p.returncode
        res = json.loads(p.stdout)
        jl = [json.loads(x) for x in open(j)]
        p = subprocess.run([ARB] + args + ["--trace-file", t, "--text",
                                           "map.json"] + files, cwd=d,
                           capture_output=True)
        txt = open(t, encoding="utf-8").read()
        bad = check(res, jl, txt)
        # A check says what the run would say (but territory's, which
        # stops before the moves): the same status (legal for done),
        # reason and rule for every order.
        if "--check" not in args and "-c" not in args and \
                res["ruleset"] != "territory":
            p = subprocess.run([ARB, "--check"] + args + ["map.json"] +
                               files, cwd=d, capture_output=True)
            if p.returncode not in (0, 1):
                bad.append("--check: exit status %d" % p.returncode)
            else:
                chk = json.loads(p.stdout)
                for o, c in zip(res["orders"], chk["orders"]):
                    st = "legal" if o["status"] == "done" else o["status"]
                    # arbiter-rules(7) Dice: a check of a map that commits
                    # to its dice shows no roll; what depends on one is
                    # legal, depends_on_dice.
                    if c["reason"] == "depends_on_dice":
                        continue
                    # arbiter-rules(7) (issue 28): where a player who acts
                    # first gave no file, the check cannot know that none
                    # will come, and a refusal only that player's unit
                    # makes is legal, depends_on_orders; the run, without
                    # the file, makes the refusal the message names.
                    if c["reason"] == "depends_on_orders":
                        m = re.search(r"depends on the orders of (.+?), "
                                      r"who acts before .+?: (\w+) would "
                                      r"refuse it", c.get("message", ""))
                        sent = set(f.get("player") for f in res["files"])
                        if m is None or m.group(1) in sent or \
                                (o["status"], o["reason"], o.get("rule")) \
                                not in (("illegal", m.group(2),
                                         c.get("rule")),
                                        ("failed", m.group(2),
                                         c.get("rule"))):
                            bad.append("--check says depends_on_orders "
                                       "for %s %s, the run %s %s %s" %
                                       (o["player"], o["id"], o["status"],
                                        o["reason"], o.get("rule")))
                        continue
                    if (st, o["reason"], o.get("rule")) != \
                            (c["status"], c["reason"], c.get("rule")):
                        bad.append("--check says %s %s %s for %s %s, the "
                                   "run %s %s %s" % (c["status"],
                                   c["reason"], c.get("rule"),
                                   o["player"], o["id"], o["status"],
                                   o["reason"], o.get("rule")))
        elif res["ruleset"] == "territory" and "check" in res:
            bad += territory_check_trace(res)
        elif res["ruleset"] == "territory":
            # A territory check stops before the moves: its trace.
            p = subprocess.run([ARB, "--check", "-t"] + args +
                               ["map.json"] + files, cwd=d,
                               capture_output=True)
            if p.returncode not in (0, 1):
                bad.append("--check: exit status %d" % p.returncode)
            else:
                bad += territory_check_trace(json.loads(p.stdout))
        return bad, None
    finally:
        shutil.rmtree(tmp)


passed = failed = 0


def report(name, bad, err):
    global passed, failed
    if err is None and not bad:
        passed += 1
        return
    failed += 1
    print("not ok - %s: %s" % (name, err or bad[0]))
    for b in (bad or [])[1:4]:
        print("#   %s" % b)


def case_job(d, args, files):
    return lambda: run(d, args, files)


def random_job(rs, seed):
    def job():
        tmp = tempfile.mkdtemp()
        try:
            p = subprocess.run([PROP, "turn", rs, str(seed), tmp + "/in"],
                               capture_output=True)
            if p.returncode != 0:
                return [], "prop failed"
            files = sorted(os.listdir(tmp + "/in/orders"))
            return run(tmp + "/in", [], ["orders/" + f for f in files])
        finally:
            shutil.rmtree(tmp)
    return job


jobs = []
only = os.environ.get("CASE")
for rs in sorted(os.listdir(os.path.join(TOP, "fixtures"))):
    base = os.path.join(TOP, "fixtures", rs)
    if not os.path.isdir(base):
        continue
    for case in sorted(os.listdir(base)):
        d = os.path.join(base, case)
        if not os.path.exists(os.path.join(d, "expected.json")):
            continue
        if only and only not in rs + "/" + case:
            continue
        args = []
        if os.path.exists(os.path.join(d, "args")):
            args = open(os.path.join(d, "args")).read().split()
        # A case made with the umpire's key keeps it as umpire.key.
        if os.path.exists(os.path.join(d, "umpire.key")):
            args = ["--secret", "umpire.key"] + args
        if "--reach" in args:
            continue        # a reach document: no result, no trace
        args = [a for a in args if a not in ("-t", "--trace")]
        # A player's report (--for) is cut from the umpire's result, which
        # is what is checked here; the cut is tests/views.sh's.
        while "--for" in args:
            i = args.index("--for")
            del args[i:i + 2]
        files = sorted(os.listdir(os.path.join(d, "orders")))
        jobs.append((rs + "/" + case,
                     case_job(d, args, ["orders/" + f for f in files])))
if not only:
    for rs in SYSTEMS:
        for seed in range(1, N + 1):
            jobs.append(("%s random turn %d (tests/prop turn %s %d DIR)" %
                         (rs, seed, rs, seed), random_job(rs, seed)))

# The cases run JOBS at a time (the programs do the work); the report
# keeps their order.
with concurrent.futures.ThreadPoolExecutor(
        int(os.environ.get("JOBS", "2"))) as pool:
    for (name, _), (bad, err) in zip(jobs, pool.map(lambda j: j[1](),
                                                     jobs)):
        report(name, bad, err)

print("consistency: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
