"""The site's header on a 390 × 844 phone: the brand and every link on one line, for a
member of staff with a long username (the longest header there is: Play, Ratings, Needs you,
Staff, Log out)."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.browser.conftest import PHONE
from tests.browser.play import keep_screenshot
from tests.factories import StaffMembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONE_LINE = """() => {
  const nav = document.querySelector('.site-header nav');
  const items = [...nav.querySelectorAll('li')];
  const lines = element => {
    const style = getComputedStyle(element);
    const content = element.getBoundingClientRect().height
      - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
      - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    return content / parseFloat(style.lineHeight);
  };
  return {
    height: lines(nav) * parseFloat(getComputedStyle(nav).lineHeight),
    itemHeights: items.map(li => li.getBoundingClientRect().height),
    lines: items.map(li => lines(li.firstElementChild.matches('form') ? li.querySelector('button') : li.firstElementChild)),
    right: Math.max(...items.map(li => li.getBoundingClientRect().right)),
    names: items.map(li => li.innerText.trim()),
  };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_header_is_one_line_at_390px_for_staff_with_a_long_name(chromium, live_server, scheme):
    user = StaffMembershipFactory(user=UserFactory(username="ada-finch")).user
    client = Client()
    client.force_login(user)
    context = chromium.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("home"))
        header = page.evaluate(ONE_LINE)
        keep_screenshot(page, f"header-390-{scheme}")
    finally:
        context.close()
    # The brand's name is kept for screen readers when the mark alone shows (signed in).
    assert header["names"][0].split() == ["◉", "Roundel"] and "Staff" in header["names"]
    assert "Needs you" in header["names"]
    # one row of items: the header is as high as its highest item ...
    assert header["height"] <= max(header["itemHeights"]) + 1, header
    # ... and no item's words broke onto a second line ("◉ / Roundel", "Log out ada-/finch")
    assert max(header["lines"]) < 1.5, header
    assert header["right"] <= PHONE["width"]
