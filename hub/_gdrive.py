"""Google Drive links: large files are answered with an HTML page asking to confirm that the
file was not virus-scanned. resolve_google_drive() reads that page and returns the address
of the file itself (the page's download form, a confirm token in its links, or the older
download_warning cookie)."""
import html
import re
import urllib.parse

from hub._transfer import Failure, open_source, read_chunks

__all__ = ["GOOGLE_DRIVE_HOSTS", "is_google_drive_url", "resolve_google_drive"]

GOOGLE_DRIVE_HOSTS = ("drive.google.com", "docs.google.com")
_PAGE_LIMIT = 1 << 20  # a confirmation page is small; more than this is a file, not a page
_FORM = re.compile(r'<form[^>]*id="download-form"[^>]*action="([^"]+)"[^>]*>(.*?)</form>', re.S)
_HIDDEN = re.compile(r'<input[^>]*type="hidden"[^>]*>')
_ATTR = re.compile(r'(name|value)="([^"]*)"')
_CONFIRM = re.compile(r"confirm=([0-9A-Za-z_-]+)")


def is_google_drive_url(url):
    return urllib.parse.urlparse(url).hostname in GOOGLE_DRIVE_HOSTS


def _with_params(url, params):
    parsed = urllib.parse.urlparse(url)
    query = dict(urllib.parse.parse_qsl(parsed.query))
    query.update(params)
    return urllib.parse.urlunparse(parsed._replace(query=urllib.parse.urlencode(query)))


def _form_target(page, base_url):
    match = _FORM.search(page)
    if not match:
        return None
    params = {}
    for tag in _HIDDEN.findall(match.group(2)):
        attrs = dict(_ATTR.findall(tag))
        if "name" in attrs:
            params[attrs["name"]] = html.unescape(attrs.get("value", ""))
    action = urllib.parse.urljoin(base_url, html.unescape(match.group(1)))
    return _with_params(action, params)


def resolve_google_drive(url):
    """(address of the file, extra request headers) for a Google Drive link."""
    with open_source(url) as transfer:
        if "text/html" not in transfer.headers.get("Content-Type", ""):
            return url, {}  # small files come straight away
        page = b"".join(_bounded(read_chunks(transfer, [0]))).decode("utf-8", "replace")
        cookies = getattr(transfer.closable, "cookies", {})
    target = _form_target(page, url)
    if target is not None:
        return target, {}
    token = next((v for k, v in cookies.items() if k.startswith("download_warning")), None)
    if token is not None:
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        return _with_params(url, {"confirm": token}), {"Cookie": cookie}
    match = _CONFIRM.search(html.unescape(page))
    if match:
        return _with_params(url, {"confirm": match.group(1)}), {}
    raise Failure("Google Drive answered with a page instead of the file (download quota exceeded, "
                  "the file is not shared publicly, or the page format changed)")


def _bounded(chunks):
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > _PAGE_LIMIT:
            raise Failure("Google Drive sent an unexpectedly large HTML page")
        yield chunk
