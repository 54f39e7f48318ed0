"""Live tables in the admin: listed and shown, never editable by hand, and nothing of a game's
hidden information (the seed, the state with every hand, an unrevealed Корова pick) reachable
through any address of the admin: not shown, not filtered, searched or ordered by."""

import json
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Permission
from django.utils.html import escape

from games.admin import TableAdmin
from games.engines import get_engine
from games.live import services
from games.models import Table, TableMove
from tests.admin_pages import change_url
from tests.factories import UserFactory
from tests.games.live.playing import finished_conquian

pytestmark = pytest.mark.django_db

TABLES = "/admin/games/table/"


@pytest.fixture
def table_viewer():
    """A member of staff whose only permission is "Can view table"."""
    user = UserFactory(username="table-viewer", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_table"))
    return user


@pytest.fixture
def log_viewer():
    """A member of staff who may view tables and their moves (the table page's log)."""
    user = UserFactory(username="log-viewer", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_table", "view_tablemove"])
    )
    return user


@pytest.fixture(params=["superuser", "table_viewer"])
def admin_client(request, client):
    client.force_login(request.getfixturevalue(request.param))
    return client


@pytest.fixture(params=["superuser", "log_viewer"])
def log_client(request, client):
    client.force_login(request.getfixturevalue(request.param))
    return client


def pick_for(table: Table, seat: int) -> dict:
    eng = get_engine(table.game)
    assert table.state is not None
    return eng.legal_moves(eng.load(table.state), seat)[0]


@pytest.fixture
def open_pick():
    """A two-player Корова table in its second turn: both picks of the first are revealed,
    seat 0 has picked again and seat 1 has not. Returns (table, revealed moves, the pick)."""
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    table = services.table_create(game="korova", players=2, options={}, bots=[], by=ada)
    services.table_join(table_id=table.pk, by=bo)
    table.refresh_from_db()
    first_turn, eng = table.turn, get_engine("korova")
    # The first picks, and a row to take after their reveal (its own turn), up to the next picks.
    while table.turn == first_turn or len(eng.to_act(eng.load(table.state))) < 2:
        seat = eng.to_act(eng.load(table.state))[0]
        table = services.table_move(
            table_id=table.pk, turn=table.turn, move=pick_for(table, seat), by=(ada, bo)[seat]
        )
    revealed = list(TableMove.objects.filter(table=table).values_list("move", flat=True))
    pick = pick_for(table, 0)
    table = services.table_move(table_id=table.pk, turn=table.turn, move=pick, by=ada)
    assert table.status == Table.Status.PLAYING
    assert TableMove.objects.filter(table=table, turn=table.turn, move=pick).exists()
    return table, revealed, pick


def what_it_tells(response) -> tuple:
    """What an answer of the table list tells its reader: its status, where it redirects,
    and the tables it lists and counts (or the body of a refusal)."""
    if response.status_code != 200:
        return response.status_code, response.get("Location"), response.content
    changelist = response.context["cl"]
    return 200, [table.pk for table in changelist.result_list], changelist.result_count


def hidden_probes(table: Table, pick: dict) -> list[tuple[str, object, object]]:
    """(lookup, a value true of the table, a value false of it) for every way of asking about
    its seed, its state or an unrevealed move: the lookups of the seed (a whole number), text
    lookups on both, JSON keys and paths, and paths through related models."""
    seed, state = table.seed, table.state
    assert state is not None
    digits, card = str(seed), state["hands"][0][0]
    return [
        ("seed", seed, seed + 1),
        ("seed__exact", seed, seed + 1),
        ("seed__iexact", seed, seed + 1),
        ("seed__lt", seed + 1, seed),
        ("seed__lte", seed, seed - 1),
        ("seed__gt", seed - 1, seed),
        ("seed__gte", seed, seed + 1),
        ("seed__in", f"{seed},{seed + 2}", f"{seed + 1},{seed + 2}"),
        ("seed__range", f"{seed},{seed}", f"{seed + 1},{seed + 2}"),
        ("seed__isnull", "False", "True"),
        ("seed__startswith", digits[:4], "x"),
        ("seed__istartswith", digits[:4], "x"),
        ("seed__endswith", digits[-4:], "x"),
        ("seed__contains", digits[3:9], "x"),
        ("seed__icontains", digits[3:9], "x"),
        ("seed__regex", f"^{digits[:5]}", "^x"),
        ("seed__iregex", f"^{digits[:5]}", "^x"),
        ("state__isnull", "False", "True"),
        ("state__icontains", f'"hands": [[{card}', '"hands": [[x'),
        ("state__contains", '"hands"', '"x"'),
        ("state__regex", f'"hands": \\[\\[{card}\\D', '"hands": \\[\\[x'),
        ("state__iregex", f'"hands": \\[\\[{card}\\D', '"hands": \\[\\[x'),
        ("state__has_key", "hands", "x"),
        ("state__hands__isnull", "False", "True"),
        ("state__hands__0__icontains", f"[{card},", "[x,"),
        ("state__hands__0__0", card, card + 1),
        ("state__hands__0__0__lte", card, card - 1),
        ("state__seed__icontains", digits[3:9], "x"),
        ("state__picks__0__0", pick["card"], pick["card"] + 1),
        ("moves__move__icontains", json.dumps(pick), '{"card": x}'),
        ("moves__move__card", pick["card"], pick["card"] + 1),
        ("moves__move__card__lte", pick["card"], pick["card"] - 1),
        ("moves__table__seed__lte", seed, seed - 1),
        ("seats__table__seed", seed, seed + 1),
        ("seats__table__state__icontains", f'"hands": [[{card}', '"hands": [[x'),
        ("created_by__table_seats__table__seed__lte", seed, seed - 1),
    ]


def test_no_lookup_of_the_table_list_depends_on_hidden_information(admin_client, open_pick):
    """Each lookup answers the same for a true and a false value: refused, 400."""
    table, _, pick = open_pick
    for lookup, true, false in hidden_probes(table, pick):
        answers = [
            what_it_tells(admin_client.get(f"{TABLES}?{urlencode({'id': table.pk, lookup: v})}"))
            for v in (true, false)
        ]
        assert answers[0] == answers[1], (lookup, answers)
        assert answers[0][0] == 400, (lookup, answers[0])


def test_the_list_filters_and_the_lookups_of_what_the_list_shows_still_work(
    admin_client, open_pick
):
    table, _, _ = open_pick
    for query, listed in [
        ({"game__exact": "korova"}, [table.pk]),
        ({"game__exact": "conquian"}, []),
        ({"status__exact": "playing"}, [table.pk]),
        ({"status__exact": "finished"}, []),
        ({"id": table.pk}, [table.pk]),
        ({"id__in": f"{table.pk},0"}, [table.pk]),
        ({"fixture__isnull": "True"}, [table.pk]),
        ({"fixture__id__exact": 0}, []),
        ({"players__gte": 2}, [table.pk]),
        ({"turn__lt": table.turn}, []),
    ]:
        assert what_it_tells(admin_client.get(f"{TABLES}?{urlencode(query)}")) == (
            200,
            listed,
            len(listed),
        ), query


def test_no_ordering_or_search_of_the_table_list_depends_on_the_seed(admin_client, superuser):
    """Two tables alike but for their seeds: every `o=` and `q=` lists them in the same order
    whichever holds the larger seed."""
    tables = [
        services.table_create(game="korova", players=2, options={}, bots=[1], by=superuser)
        for _ in range(2)
    ]
    columns = len(TableAdmin.list_display)
    orderings = [str(n) for n in range(-columns - 2, columns + 3)]
    orderings += ["seed", "-seed", "state", "0.seed", "1.-2.3", "99"]
    queries = [{"o": o} for o in orderings]
    queries += [{"q": str(table.seed)} for table in tables] + [{"q": "1"}, {"q": "hands"}]
    seen = []
    for seeds in ([1, 2], [2, 1]):
        for table, seed in zip(tables, seeds, strict=True):
            Table.objects.filter(pk=table.pk).update(seed=seed)
        seen.append([what_it_tells(admin_client.get(f"{TABLES}?{urlencode(q)}")) for q in queries])
    assert seen[0] == seen[1]


def test_an_unfinished_korova_table_shows_neither_an_unrevealed_pick_nor_seed_nor_hands(
    log_client, open_pick
):
    table, revealed, pick = open_pick
    for address in (change_url(table), f"{TABLES}{table.pk}/history/", TABLES):
        page = log_client.get(address)
        assert page.status_code == 200, address
        text = page.content.decode()
        assert escape(json.dumps(pick)) not in text, address
        assert str(table.seed) not in text, address
        assert "hands" not in text, address
    page = log_client.get(change_url(table)).content.decode()
    assert all(escape(json.dumps(move)) in page for move in revealed)
    assert "hidden while its turn is open" in page


def test_a_finished_table_shows_every_move(log_client):
    table = finished_conquian([UserFactory(), UserFactory()])
    page = log_client.get(change_url(table)).content.decode()
    moves = list(table.moves.values_list("move", flat=True))
    assert moves and all(escape(json.dumps(move)) in page for move in moves)
    assert "hidden while its turn is open" not in page
    assert str(table.seed) not in page


def test_an_admin_sees_a_table_but_cannot_change_it(client, superuser):
    table = services.table_create(game="korova", players=2, options={}, bots=[1], by=superuser)
    client.force_login(superuser)
    assert client.get(TABLES).status_code == 200
    assert client.get(change_url(table)).status_code == 200
    assert client.post(change_url(table), {}).status_code == 403
    assert client.get(f"{TABLES}add/").status_code == 403


def test_no_other_admin_list_reaches_a_tables_hidden_information(client, superuser, open_pick):
    table, _, _ = open_pick
    client.force_login(superuser)
    for address, query in [
        ("/admin/leagues/fixture/", {"live_tables__seed__lte": table.seed}),
        ("/admin/leagues/fixture/", {"live_tables__state__icontains": "hands"}),
        ("/admin/leagues/player/", {"table_seats__table__seed__lte": table.seed}),
        ("/admin/auth/user/", {"table_seats__table__seed__lte": table.seed}),
        (TABLES, {"_to_field": "seed", "_popup": 1}),
        (TABLES, {"_to_field": "state", "_popup": 1}),
    ]:
        assert client.get(f"{address}?{urlencode(query)}").status_code == 400, (address, query)
