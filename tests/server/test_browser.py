"""The pages in real headless Chromium against the real server (marked ``browser``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer, screenshot
from weiqi.roles import Role
from weiqi.services.accounts import create_user, grant_role
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser
SWISS = EventSettings(System.SWISS, rounds=5)


NEW_ADMIN_PASSWORD = "管理员的新密码 2026"


def log_in(page: Page, server: LiveServer, username: str, password: str) -> None:
    page.goto(f"{server.url}/login")
    page.get_by_label("用户名").fill(username)
    page.get_by_label("密码").fill(password)
    page.locator("form").get_by_role("button", name="登录").click()


def test_admin_first_run_languages_and_a_new_user(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """In Chinese: log in with the printed one-time password, set one's own, switch to English
    and back, create a user, an event and a role."""
    page.goto(live_server.url)
    expect(page.locator("h1")).to_have_text("赛事")
    expect(page.get_by_text("还没有赛事。")).to_be_visible()
    screenshot(page, "home-empty-zh", tmp_path)

    log_in(page, live_server, "admin", live_server.admin_password)
    expect(page).to_have_url(f"{live_server.url}/account")
    expect(page.locator(".notice.warning")).to_contain_text("一次性密码")
    page.get_by_label("当前密码").fill(live_server.admin_password)
    page.get_by_label("新密码").fill(NEW_ADMIN_PASSWORD)
    page.get_by_role("button", name="修改密码").click()
    expect(page.get_by_role("status")).to_have_text("密码已修改。")
    expect(page.locator(".notice.warning")).to_have_count(0)

    page.get_by_role("link", name="English").click()
    expect(page.locator("h1")).to_have_text("Account")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="中文").click()
    expect(page.locator("h1")).to_have_text("账户")

    page.get_by_role("link", name="管理").click()
    form = page.locator("#new-user")
    form.get_by_label("用户名").fill("li")
    form.get_by_label("姓名").fill("李明")
    form.get_by_label("密码").fill("李明的密码123")
    form.get_by_role("button", name="创建用户").click()
    expect(page.get_by_role("status")).to_have_text("已创建用户 li。")
    expect(page.locator("#users")).to_contain_text("李明")

    page.locator("#admin-new-event").click()  # the full form: system and settings
    expect(page).to_have_url(f"{live_server.url}/events/new")
    page.get_by_label("赛事名称").fill("2026年春季围棋赛")
    page.get_by_role("button", name="创建赛事").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/manage$"))
    page.get_by_role("link", name="管理", exact=True).click()
    grant = page.locator("#grant-role")
    grant.get_by_label("用户").select_option(label="李明 (li)")
    grant.get_by_label("角色").select_option(label="裁判员")
    grant.get_by_role("button", name="分配角色").click()
    expect(page.locator("#grants")).to_contain_text("裁判员")
    shot = screenshot(page, "admin-zh", tmp_path)
    assert shot.stat().st_size > 10_000

    page.goto(live_server.url)
    expect(page.locator(".card-title", has_text="2026年春季围棋赛")).to_be_visible()


def test_a_non_admin_gets_403_on_the_admin_page(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-ORG-1: a referee is no site administrator."""
    db = Database(live_server.db_url)
    wang = create_user(db, Actor.local(), "wang", "王伟的密码123", "王伟")
    event = create_event(db, Actor.local(), "秋季赛", SWISS)
    grant_role(db, Actor.local(), wang.id, event.id, Role.REFEREE)
    db.dispose()
    log_in(page, live_server, "wang", "王伟的密码123")
    expect(page.get_by_role("link", name="王伟")).to_be_visible()
    expect(page.get_by_role("link", name="管理")).to_have_count(0)
    response = page.goto(f"{live_server.url}/admin")
    assert response is not None and response.status == 403
    expect(page.locator("h1")).to_contain_text("没有权限")
    expect(page.get_by_role("alert")).to_have_text("wang无权进入网站管理。")
    screenshot(page, "forbidden-zh", tmp_path)
    page.goto(f"{live_server.url}/account")
    expect(page.locator("table")).to_contain_text("裁判员")


def test_print_is_a4_without_navigation(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator("h1")).to_be_visible()
    pdf = page.pdf(prefer_css_page_size=True)
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert box is not None
    width, height = float(box.group(1)), float(box.group(2))
    assert (round(width), round(height)) == (595, 842)  # A4 in points
