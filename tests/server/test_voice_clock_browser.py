"""The voice clock page in real headless Chromium against the real server (marked ``browser``).

Time is simulated (``?simulate=1``: the page's clock moves only through
``window.weiqiClock.advance(ms)``), never waited for; speech is recorded by a stub of
``speechSynthesis.speak`` installed before the page's scripts run.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.server.conftest import LiveServer, screenshot
from weiqi.clock import TimeControl
from weiqi.server.voice_clock import replay_log

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET_LANDSCAPE = {"width": 1194, "height": 834}
RECORD_SPEECH = """
window.__spoken = [];
const fakeSpeech = {
  speak(u) { window.__spoken.push({ text: u.text, lang: u.lang }); },
  cancel() {},
  getVoices() { return []; },
};
Object.defineProperty(window, "speechSynthesis", { value: fakeSpeech, configurable: true });
window.__wake = [];
const fakeWakeLock = {
  async request(type) {
    window.__wake.push(`request ${type}`);
    const sentinel = new EventTarget();
    sentinel.release = async () => { window.__wake.push("release"); };
    return sentinel;
  },
};
Object.defineProperty(navigator, "wakeLock", { value: fakeWakeLock, configurable: true });
"""
STATE_KEYS = (
    "black",
    "white",
    "status",
    "to_move",
    "since",
    "elapsed",
    "flagged",
    "flag_at",
    "sealed",
)


def new_page(browser: Browser, viewport: dict[str, int], lang: str | None = None) -> Page:
    context = browser.new_context(locale="zh-CN", viewport=viewport)
    context.set_default_timeout(10_000)
    context.add_init_script(RECORD_SPEECH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    page = new_page(browser, PHONE)
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture
def tablet(browser: Browser) -> Iterator[Page]:
    page = new_page(browser, TABLET_LANDSCAPE)
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def open_clock(page: Page, server: LiveServer, tc: str) -> None:
    page.goto(f"{server.url}/clock?tc={quote(tc)}&simulate=1")
    expect(page.locator("#voice-clock")).to_have_attribute("data-ready", "true")


def advance(page: Page, ms: int) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(f"weiqiClock.advance({ms})")
    return state


def face(page: Page, color: str) -> Locator:
    return page.locator(f'.face[data-color="{color}"]')


def log_texts(page: Page, kind: str | None = None) -> list[str]:
    selector = "#clock-log li" + (f'[data-kind="{kind}"]' if kind else "")
    return [t.strip() for t in page.locator(f"{selector} span").all_text_contents()]


def spoken(page: Page) -> list[dict[str, str]]:
    said: list[dict[str, str]] = page.evaluate("window.__spoken")
    return [s for s in said if s["text"]]  # the empty first utterance unlocks mobile speech


def assert_python_agrees(page: Page, tc: str) -> dict[str, Any]:
    """The page's log replayed through weiqi.clock gives the page's state and call-outs."""
    now = page.evaluate("weiqiClock.now()")
    events = [*page.evaluate("weiqiClock.events()"), {"op": "advance", "now": now / 1000}]
    python = replay_log(TimeControl.parse(tc), events)
    js = page.evaluate("weiqiClock.state()")
    assert {k: js[k] for k in STATE_KEYS} == {k: python["state"][k] for k in STATE_KEYS}
    assert js["moves"] == python["state"]["moves"]
    keys = ("move", "color", "offset_ms", "zh", "en")
    page_calls = page.evaluate("weiqiClock.callouts()")
    assert [{k: c[k] for k in keys} for c in page_calls] == [
        {k: c[k] for k in keys} for c in python["callouts"]
    ]
    verdict = page.evaluate("weiqiClock.verify()")  # the page asks POST /api/clock/replay
    assert verdict["agree"], verdict
    return python


LAST_PERIOD = ["15秒", "20秒", *[str(k) for k in range(1, 11)]]
FULL_PERIOD = ["15秒", "20秒", "25秒", "28秒", "29秒"]


def test_r_time_3_byo_yomi_calls_spoken_in_chinese_and_shown_until_the_flag(
    phone: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-TIME-3 (call-outs), R-TIME-2 (periods, flag), R-TIME-5 (pause): 1 min + 3 × 30 s."""
    page = phone
    open_clock(page, live_server, "1m+3x30s")
    black, white = face(page, "B"), face(page, "W")
    expect(black.locator(".digits")).to_have_text("1:00")
    expect(page.locator("#clock-status")).to_have_text("准备：轻触一方或按“开始”")
    expect(black.locator(".hint")).to_have_text("轻触开始对方计时")
    screenshot(page, "clock-phone-ready-zh", tmp_path)

    white.locator(".face-press").click()  # White presses: Black's clock starts
    expect(black).to_have_class(re.compile(r"\brunning\b"))
    expect(white).not_to_have_class(re.compile(r"\brunning\b"))
    advance(page, 10_000)
    expect(black.locator(".digits")).to_have_text("0:50")
    black.locator(".face-press").click()  # a press switches sides
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    expect(black.locator(".digits")).to_have_text("0:50")

    advance(page, 60_000)  # White's main time is gone: byo-yomi
    expect(white.locator(".digits")).to_have_text("0:30")
    expect(white.locator(".detail")).to_have_text("读秒：还剩3次")
    expect(white.locator(".call")).to_have_text("")
    advance(page, 15_000)
    expect(white.locator(".call")).to_have_text("15秒")
    expect(white.locator(".digits")).to_have_text("0:15")
    advance(page, 15_000)
    expect(white.locator(".call")).to_have_text("30秒，还剩2次")
    expect(white.locator(".detail")).to_have_text("读秒：还剩2次")
    screenshot(page, "clock-phone-byo-yomi-zh", tmp_path)
    advance(page, 5_000)
    white.locator(".face-press").click()  # 35 s: one full period used; the next starts afresh
    expect(white.locator(".digits")).to_have_text("0:30")
    expect(white.locator(".detail")).to_have_text("读秒：还剩2次")
    expect(white.locator(".call")).to_have_text("")

    # R-TIME-5: ten minutes of pause cost Black nothing.
    assert page.evaluate("window.__wake") == ["request screen"]  # the screen stays on
    page.get_by_role("button", name="暂停", exact=True).click()
    expect(page.locator("#clock-status")).to_have_text("已暂停")
    page.wait_for_function("() => window.__wake.at(-1) === 'release'")
    advance(page, 600_000)
    expect(black.locator(".digits")).to_have_text("0:50")
    page.get_by_role("button", name="继续", exact=True).click()
    expect(black).to_have_class(re.compile(r"\brunning\b"))

    advance(page, 50_000 + 60_000)  # main time, then two whole periods
    expect(black.locator(".call")).to_have_text("30秒，还剩1次")
    expect(black.locator(".detail")).to_have_text("读秒：还剩1次")
    state = advance(page, 29_999)  # the last period's count-down has reached 9
    assert state["status"] == "running"
    expect(black.locator(".call")).to_have_text("9")
    state = advance(page, 1)  # 10: the flag falls at this very instant
    assert state["status"] == "flagged" and state["flagged"] == "B"
    assert state["flag_at"] == 105_000 + 600_000 + 140_000
    expect(black).to_have_class(re.compile(r"\bflagged\b"))
    expect(black.locator(".call")).to_have_text("10")
    expect(page.locator("#clock-status")).to_have_text("白超时胜")
    black.locator(".face-press").click()  # too late: nothing changes
    assert page.evaluate("weiqiClock.state()")["flag_at"] == 845_000
    screenshot(page, "clock-phone-flag-zh", tmp_path)

    calls = [*FULL_PERIOD, "30秒，还剩2次"]
    black_calls = [*FULL_PERIOD, "30秒，还剩2次", *FULL_PERIOD, "30秒，还剩1次", *LAST_PERIOD]
    assert log_texts(page, "callout") == [f"白方读秒：{c}" for c in calls] + [
        f"黑方读秒：{c}" for c in black_calls
    ]
    said = spoken(page)
    assert [s["text"] for s in said] == [*calls, *black_calls, "白超时胜"]
    assert {s["lang"] for s in said} == {"zh-CN"}

    page.get_by_role("button", name="记录", exact=True).click()
    kinds = page.locator("#clock-log li").evaluate_all("items => items.map(i => i.dataset.kind)")
    assert kinds == ["start", "press", *["callout"] * 6, "press", "pause", "resume",
                     *["callout"] * 24, "flag"]  # fmt: skip
    texts = log_texts(page)
    assert texts[:2] == ["开始计时，黑方先行", "黑方按钟（第1手），用时0:10.0"]
    assert texts[8:11] == ["白方按钟（第2手），用时1:35.0", "已暂停", "继续计时"]
    assert texts[-1] == "黑方超时：白超时胜"
    expect(page.locator("#clock-log li time").last).to_have_text("14:05.0")

    python = assert_python_agrees(page, "1m+3x30s")
    assert python["result"]["zh"] == "白超时胜"
    expect(page.locator("#clock-verdict")).to_have_text("服务器的计时模型与本记录一致。")
    screenshot(page, "clock-phone-log-zh", tmp_path)


def test_r_time_2_a_run_out_counts_as_a_forfeited_turn_on_request(
    phone: Page, live_server: LiveServer
) -> None:
    """R-TIME-2: with the event's 弃权一次 option, the flagged player may ask for a pass."""
    page = phone
    open_clock(page, live_server, "1x30s pass")
    page.get_by_role("button", name="开始", exact=True).click()
    expect(face(page, "B")).to_have_class(re.compile(r"\brunning\b"))
    advance(page, 30_000)
    expect(page.locator("#clock-status")).to_have_text("白超时胜")
    forfeit = page.get_by_role("button", name="按要求计为弃权一次", exact=True)
    expect(forfeit).to_be_visible()
    advance(page, 4_000)  # the referee hears the request
    forfeit.click()
    expect(face(page, "W")).to_have_class(re.compile(r"\brunning\b"))
    expect(face(page, "B").locator(".detail")).to_have_text("读秒：还剩1次")
    expect(face(page, "B").locator(".digits")).to_have_text("0:30")
    assert log_texts(page)[-2:] == ["黑方超时：白超时胜", "黑方按要求计为弃权一次"]
    python = assert_python_agrees(page, "1x30s pass")
    assert python["result"] is None and python["state"]["to_move"] == "W"


def test_no_forfeited_turn_without_the_event_option(phone: Page, live_server: LiveServer) -> None:
    page = phone
    open_clock(page, live_server, "1x30s")
    page.get_by_role("button", name="开始", exact=True).click()
    advance(page, 30_000)
    expect(page.locator("#clock-status")).to_have_text("白超时胜")
    expect(page.locator("#clock-forfeit")).to_be_hidden()


def test_r_time_1_absolute_time_with_the_keyboard_on_a_tablet(
    tablet: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-TIME-1: 包干 90 min; space and the shift keys press; running out loses."""
    page = tablet
    open_clock(page, live_server, "90m")
    black, white = face(page, "B"), face(page, "W")
    expect(black.locator(".digits")).to_have_text("1:30:00")
    page.keyboard.press("Space")  # starts Black
    expect(black).to_have_class(re.compile(r"\brunning\b"))
    advance(page, 30 * 60_000)
    page.keyboard.press("Space")  # the running side presses
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    advance(page, 1_234)
    page.keyboard.press("ShiftRight")  # the right half is Black's: not Black's turn, no effect
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    page.keyboard.press("ShiftLeft")  # the left half is White's
    expect(black).to_have_class(re.compile(r"\brunning\b"))
    expect(white.locator(".digits")).to_have_text("1:29:59")
    expect(black.locator(".digits")).to_have_text("1:00:00")
    screenshot(page, "clock-tablet-running-zh", tmp_path)
    advance(page, 60 * 60_000 - 1)
    expect(black.locator(".digits")).to_have_text("0.1")
    state = advance(page, 1)
    assert state["flag_at"] == 30 * 60_000 + 1_234 + 60 * 60_000
    expect(black).to_have_class(re.compile(r"\bflagged\b"))
    expect(page.locator("#clock-status")).to_have_text("白超时胜")
    assert spoken(page) == [{"text": "白超时胜", "lang": "zh-CN"}]  # no byo-yomi, no calls
    assert_python_agrees(page, "90m")
    screenshot(page, "clock-tablet-flag-zh", tmp_path)
    page.set_viewport_size({"width": 844, "height": 390})  # a phone on its side
    expect(white.locator(".hint")).to_have_text("白超时胜")
    expect(black.locator(".detail")).to_have_text("超时")
    screenshot(page, "clock-phone-landscape-flag-zh", tmp_path)


def test_r_time_1_a_player_who_gives_up_stops_the_clocks(
    tablet: Page, live_server: LiveServer
) -> None:
    """R-TIME-1: the clocks can be stopped for good; time no longer runs."""
    page = tablet
    open_clock(page, live_server, "10m")
    expect(page.locator(".face-top")).to_have_attribute("data-color", "W")
    page.get_by_role("button", name="换边", exact=True).click()
    expect(page.locator(".face-top")).to_have_attribute("data-color", "B")
    page.get_by_role("button", name="开始", exact=True).click()
    expect(page.locator(".face-top")).to_have_class(re.compile(r"\brunning\b"))
    advance(page, 61_000)
    page.get_by_role("button", name="终局停钟", exact=True).click()
    expect(page.locator("#clock-status")).to_have_text("已停钟")
    advance(page, 3_600_000)
    expect(face(page, "B").locator(".digits")).to_have_text("8:59")
    assert page.evaluate("weiqiClock.state()")["status"] == "stopped"
    assert_python_agrees(page, "10m")
    page.get_by_role("button", name="重置", exact=True).click()
    expect(face(page, "B").locator(".digits")).to_have_text("10:00")
    expect(page.locator("#clock-log li")).to_have_count(0)


def test_r_time_5_a_sealed_move_stops_both_clocks_until_resumption(
    phone: Page, live_server: LiveServer
) -> None:
    """R-TIME-5: the player to move seals; their clock ran until sealing, then nothing runs;
    at resumption the sealed move is played and the opponent's clock runs."""
    page = phone
    open_clock(page, live_server, "1m+3x30s")
    black, white = face(page, "B"), face(page, "W")
    page.get_by_role("button", name="开始", exact=True).click()
    advance(page, 20_000)
    page.get_by_role("button", name="封棋", exact=True).click()
    expect(page.locator("#clock-status")).to_have_text("封盘：续赛时先下封棋的一手")
    assert log_texts(page)[-1] == "黑方封棋，用时0:20.0"
    advance(page, 3_600_000)  # the adjournment
    expect(black.locator(".digits")).to_have_text("0:40")
    expect(white.locator(".digits")).to_have_text("1:00")
    page.get_by_role("button", name="继续", exact=True).click()
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    advance(page, 5_000)
    expect(white.locator(".digits")).to_have_text("0:55")
    python = assert_python_agrees(page, "1m+3x30s")
    assert python["state"]["moves"] == 1 and python["state"]["sealed"] is False


def test_r_time_4_moves_per_period_shows_moves_left_and_carries_time_over(
    phone: Page, live_server: LiveServer
) -> None:
    """R-TIME-4: after 1 min, 2 moves per 30 s; time left over carries into the next period."""
    page = phone
    open_clock(page, live_server, "1m+2/30s")
    black = face(page, "B")
    page.get_by_role("button", name="开始", exact=True).click()
    expect(black.locator(".detail")).to_have_text("基本时限 · 之后每节限着2手")
    advance(page, 70_000)
    expect(black.locator(".detail")).to_have_text("本节还需走2手")
    expect(black.locator(".digits")).to_have_text("0:20")
    black.locator(".face-press").click()
    expect(black.locator(".detail")).to_have_text("本节还需走1手")
    advance(page, 1_000)
    face(page, "W").locator(".face-press").click()
    advance(page, 5_000)
    black.locator(".face-press").click()  # the period's 2nd move with 15 s to spare
    expect(black.locator(".detail")).to_have_text("本节还需走2手")
    expect(black.locator(".digits")).to_have_text("0:45")
    assert_python_agrees(page, "1m+2/30s")


def test_english_calls_are_spoken_in_english(browser: Browser, live_server: LiveServer) -> None:
    """R-TIME-3 in the English interface."""
    page = new_page(browser, PHONE)
    page.context.add_cookies([{"name": "lang", "value": "en", "url": live_server.url}])
    open_clock(page, live_server, "3x30s")
    page.get_by_role("button", name="Start", exact=True).click()
    advance(page, 30_000)
    expect(face(page, "B").locator(".call")).to_have_text("30 seconds, 2 periods left")
    said = spoken(page)
    assert [s["text"] for s in said][:2] == ["15 seconds", "20 seconds"]
    assert {s["lang"] for s in said} == {"en-US"}
    assert log_texts(page, "callout")[0] == "Black byo-yomi: 15 seconds"
    page.context.close()


def test_the_clock_runs_in_real_time_without_simulation(
    phone: Page, live_server: LiveServer
) -> None:
    page = phone
    page.goto(f"{live_server.url}/clock?tc=3x30s")
    expect(page.locator("#voice-clock")).to_have_attribute("data-ready", "true")
    assert page.evaluate("weiqiClock.simulate") is False
    page.get_by_role("button", name="开始", exact=True).click()
    page.wait_for_function("() => weiqiClock.session.remaining('B').period < 29.8")
    expect(face(page, "B")).to_have_class(re.compile(r"\brunning\b"))


def test_setting_form_shows_the_fields_error_then_opens_the_clock(
    phone: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    page = phone
    page.goto(f"{live_server.url}/clock?simulate=1")
    form = page.locator("#clock-form")
    form.get_by_label("计时方式").select_option(label="基本时限＋读秒")
    form.get_by_label("基本时限（如 60m、1h30m、90s）").fill("4m")
    form.get_by_label("基本时限含读秒").check()
    form.get_by_label("读秒次数").fill("5")
    form.get_by_label("每次读秒或每节时长").fill("60s")
    form.get_by_role("button", name="打开计时钟", exact=True).click()
    expect(page.locator("#error-periods")).to_contain_text("300秒，超过了240秒的时限")
    expect(form.get_by_label("读秒次数")).to_have_attribute("aria-invalid", "true")
    screenshot(page, "clock-form-error-zh", tmp_path)
    form.get_by_label("基本时限（如 60m、1h30m、90s）").fill("60m")
    form.get_by_role("button", name="打开计时钟", exact=True).click()
    expect(page).to_have_url(re.compile(r"/clock\?tc=55m%2B5x60s&simulate=1$"))
    expect(page.locator(".setting")).to_contain_text("基本时限55分，读秒5次，每次60秒")
    page.get_by_role("link", name="设置", exact=True).click()
    expect(page.locator("#clock-form select")).to_have_value("byo_yomi")
    page.get_by_role("link", name=re.compile("全国赛")).click()
    expect(page.locator(".setting")).to_contain_text("基本时限55分")


# -- the browser's clock and weiqi.clock agree on random games -----------------------------

RUN_SCRIPT = """async ([plan, steps]) => {
  const { Session } = await import("/static/clock.js");
  let t = 0;
  const s = new Session(plan, () => t);
  for (const [op, arg] of steps) {
    const c = op === "wait" ? s.clock : s.tick(); // as the page: a flag due has fallen
    try {
      if (op === "wait") { t += arg; if (arg % 2) s.tick(); }
      else if (op === "start" && c.status === "ready") s.start(arg);
      else if (op === "press" && c.status === "running") s.press(c.to_move);
      else if (op === "wrong" && c.status === "running") s.press(c.to_move === "B" ? "W" : "B");
      else if (op === "pause" && c.status === "running") s.pause();
      else if (op === "seal" && c.status === "running") s.seal();
      else if (op === "resume" && c.status === "paused") s.resume();
      else if (op === "forfeit" && c.status === "flagged" && plan.timeout_pass) s.forfeitTurn();
      else if (op === "stop" && c.status !== "ready") s.stop();
    } catch (err) {
      if (op !== "wrong") throw err;
    }
  }
  s.tick();
  return { now: t, events: s.events, state: s.clock.toDict(), callouts: s.callouts,
           remaining: { B: s.remaining("B"), W: s.remaining("W") } };
}"""
SETTINGS = [
    "1m+3x30s",
    "10s+2x10s pass",
    "5x60s",
    "90s",
    "1m+2/30s",
    "20s+3/15s canadian",
    "30s+5s/move",
    "untimed",
]


def random_steps(rng: random.Random, period: float) -> list[tuple[str, Any]]:
    steps: list[tuple[str, Any]] = [("start", rng.choice(["B", "B", "W"]))]
    for _ in range(rng.randint(10, 50)):
        kind = rng.choices(
            ["wait", "press", "pause", "seal", "resume", "forfeit", "stop", "wrong"],
            [10, 10, 0.6, 0.3, 4, 3, 0.05, 0.5],
        )[0]
        if kind == "wait":  # quick moves, waits onto call-outs and flags, and any length
            r = rng.random()
            if r < 0.4:
                ms = rng.randint(0, int(period * 300))
            elif r < 0.7:
                ms = int(period * 1000 * rng.choice([0.5, 1, 1, 2]))
            else:
                ms = rng.randint(0, int(period * 1500) + 1)
            steps.append(("wait", ms))
        else:
            steps.append((kind, None))
    return steps


@pytest.mark.parametrize("settings", SETTINGS)
def test_js_clock_equals_python_replay_on_random_games(
    phone: Page, live_server: LiveServer, settings: str
) -> None:
    """The transcription in clock.js and weiqi.clock agree: state, call-outs (move, offset,
    text) and time left, on random games of every time system (seeded, reproducible)."""
    page = phone
    tc = TimeControl.parse(settings)
    page.goto(f"{live_server.url}/clock?tc={quote(settings)}&simulate=1")
    plan = page.evaluate("weiqiClock.plan")
    rng = random.Random(f"voice clock {settings}")
    period = tc.period_time or min(tc.main_time, 60.0) or 30.0
    for _ in range(12):
        steps = random_steps(rng, period)
        js = page.evaluate(RUN_SCRIPT, [plan, steps])
        python = replay_log(tc, [*js["events"], {"op": "advance", "now": js["now"] / 1000}])
        context = f"{settings}: {steps}"
        assert {k: js["state"][k] for k in (*STATE_KEYS, "moves")} == {
            k: python["state"][k] for k in (*STATE_KEYS, "moves")
        }, context
        keys = ("move", "color", "offset_ms", "zh", "en")
        assert [{k: c[k] for k in keys} for c in js["callouts"]] == [
            {k: c[k] for k in keys} for c in python["callouts"]
        ], context
        assert js["remaining"] == python["remaining"], context
