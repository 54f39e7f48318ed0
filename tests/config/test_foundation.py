import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env):
    ours = {"DEBUG", "SECRET_KEY", "CACHE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in ours}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


# The production recipe's shared cache (README), here the test Redis.
SHARED_CACHE = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379") + "/1"


def test_production_settings_pass_the_deploy_check_without_warnings():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        CACHE_URL=SHARED_CACHE,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_fails_without_a_shared_cache_for_the_throttle_counts():
    """Each gunicorn worker would count the token endpoint's requests on its own."""
    result = run_manage("check", "--deploy", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode != 0
    assert "roundel.E001" in result.stderr and "CACHE_URL=redis://" in result.stderr


def test_development_settings_load_without_a_secret_key():
    result = run_manage("check", DEBUG="1")
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Roundel" in response.content.decode()


@pytest.mark.django_db
def test_admin_login_renders(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "Roundel API"
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.celery
def test_ping_task_round_trip_through_a_real_worker_on_redis(celery_redis_worker):
    result = celery_redis_worker.send_task("roundel.ping")
    assert result.get(timeout=30) == "pong"
