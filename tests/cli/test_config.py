"""Configuration: the file, the environment on top of it, and errors that name the key."""

from __future__ import annotations

import io
import pathlib
import tomllib
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.process.config import Config, ConfigError, load_config

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file():
    config = load_config()
    assert config.token is None
    assert config.database == Path("data/chancellery.sqlite3")
    assert config.dev_guild_id is None and config.content_dir is None
    assert config.log_level == "INFO"
    assert config.table_defaults() == {
        "phase_hours": 24.0,
        "reminders_hours": [12.0, 1.0],
        "diplomacy_minutes": 1440.0,
    }


def test_config_toml_in_the_working_directory_is_read(clean_env):
    _write(clean_env / "config.toml", 'database = "x.sqlite3"\ndev_guild_id = 42\nlog_level = "debug"\n')
    config = load_config()
    assert config.database == Path("x.sqlite3")
    assert config.dev_guild_id == 42
    assert config.log_level == "DEBUG"


def test_discord_token_in_the_environment_wins_over_the_file(clean_env, monkeypatch):
    path = _write(clean_env / "c.toml", 'token = "from-file"\n')
    assert load_config(path).token == "from-file"
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    assert load_config(path).token == "from-env"


def test_other_keys_from_the_environment_win_too(clean_env, monkeypatch):
    path = _write(clean_env / "c.toml", 'database = "file.sqlite3"\ndefault_reminders_hours = [3]\n')
    monkeypatch.setenv("CHANCELLERY_DATABASE", "env.sqlite3")
    monkeypatch.setenv("CHANCELLERY_DEFAULT_REMINDERS_HOURS", "[1, 6]")
    config = load_config(path)
    assert config.database == Path("env.sqlite3")
    assert config.default_reminders_hours == [6.0, 1.0]  # latest first, as the scheduler walks them


def test_chancellery_config_names_another_file(clean_env, monkeypatch):
    path = _write(clean_env / "elsewhere.toml", "diplomacy_minutes = 30\n")
    monkeypatch.setenv("CHANCELLERY_CONFIG", str(path))
    config = load_config()
    assert config.diplomacy_minutes == 30.0
    assert "diplomacy_minutes" in config.model_fields_set


def test_blank_token_means_not_configured(clean_env):
    assert load_config(_write(clean_env / "c.toml", 'token = "  "\n')).token is None


def test_unknown_key_is_an_error_naming_file_and_key(clean_env):
    path = _write(clean_env / "c.toml", 'databse = "typo.sqlite3"\n')
    with pytest.raises(ConfigError, match=r"c\.toml: unknown key 'databse' \(known keys: .*database"):
        load_config(path)


def test_wrong_type_is_an_error_naming_the_key(clean_env):
    path = _write(clean_env / "c.toml", 'dev_guild_id = "my server"\n')
    with pytest.raises(ConfigError, match=r"c\.toml: dev_guild_id: "):
        load_config(path)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('log_level = "LOUD"\n', "log_level"),
        ("default_phase_hours = 0\n", "default_phase_hours"),
        ("default_reminders_hours = [1, -2]\n", "default_reminders_hours"),
    ],
)
def test_bad_values_are_errors(clean_env, text, key):
    with pytest.raises(ConfigError, match=key):
        load_config(_write(clean_env / "c.toml", text))


def test_broken_toml_and_missing_file_are_errors(clean_env):
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(_write(clean_env / "c.toml", "token = \n"))
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(clean_env / "missing.toml")


def test_the_example_file_documents_every_key_and_loads():
    example = ROOT / "config.example.toml"
    text = example.read_text(encoding="utf-8")
    for key in Config.model_fields:
        assert f"\n{key} =" in text or f"\n# {key} =" in text, f"config.example.toml does not document {key}"
    assert set(tomllib.loads(text)) <= set(Config.model_fields)
    config = load_config(example)
    assert config.token is None  # the example's empty token leaves the bot in console mode


def test_main_reports_a_bad_config_and_exits_2(clean_env, capsys):
    _write(clean_env / "config.toml", "colour = 3\n")
    assert main(["replay", "nothing.json"], stdout=io.StringIO()) == 2
    assert "unknown key 'colour'" in capsys.readouterr().err


def test_content_dir_and_log_level_are_applied(clean_env, monkeypatch):
    import logging

    import engine.core

    seen = []
    monkeypatch.setattr(engine.core, "set_content_dir", seen.append)
    monkeypatch.setattr(logging, "basicConfig", lambda **kw: seen.append(kw["level"]))
    _write(clean_env / "config.toml", 'content_dir = "our-cards"\nlog_level = "warning"\n')
    assert (
        main(["replay", "missing.json"], stdout=io.StringIO()) == 2
    )  # the file is missing; config came first
    assert seen == ["WARNING", Path("our-cards")]


def test_a_postgresql_url_is_kept_whole_and_a_path_stays_a_path(clean_env, monkeypatch):
    monkeypatch.setenv("CHANCELLERY_DATABASE", "postgresql://bot:secret@db.example.org:5433/chancellery")
    assert load_config().database == "postgresql://bot:secret@db.example.org:5433/chancellery"
    monkeypatch.setenv("CHANCELLERY_DATABASE", "other/tables.sqlite3")
    assert load_config().database == Path("other/tables.sqlite3")


def test_the_database_url_is_printed_without_its_password():
    from bot.__main__ import shown_database

    assert shown_database("postgresql://bot:secret@db.example.org/chancellery") == (
        "postgresql://bot:***@db.example.org/chancellery"
    )
    assert shown_database(Path("data/chancellery.sqlite3")) == "data/chancellery.sqlite3"


def test_shard_settings_name_this_processs_part_of_the_servers(clean_env, monkeypatch):
    from bot.discord.client import ShardedChancelleryBot, create_bot
    from bot.process.shards import Shards

    assert load_config().shards() == Shards()  # no shard settings: every server
    monkeypatch.setenv("CHANCELLERY_SHARD_COUNT", "4")
    monkeypatch.setenv("CHANCELLERY_SHARD_IDS", "[1, 3]")
    config = load_config()
    assert config.shards() == Shards(4, (1, 3))
    bot = create_bot(config, service=None)
    assert isinstance(bot, ShardedChancelleryBot) and (bot.shard_count, bot.shard_ids) == (4, [1, 3])


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [(None, "[0]", "shard_ids needs shard_count"), ("2", "[2]", "between 0 and 1"), ("0", None, "greater than")],
)
def test_impossible_shard_settings_are_refused(clean_env, monkeypatch, count, ids, message):
    for key, value in (("CHANCELLERY_SHARD_COUNT", count), ("CHANCELLERY_SHARD_IDS", ids)):
        if value is not None:
            monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError, match=message):
        load_config()
