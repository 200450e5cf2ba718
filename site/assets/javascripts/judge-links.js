// "Ask the judge" and "Open in the judge" links lead to the judge (`rulebook judge`), which
// serves this rulebook at /rulebook/ and answers beside it. A copy of the rulebook hosted
// without a judge keeps the links hidden: they appear only once the judge has answered.
//
// Where the judge serves the rulebook itself, the site's judge.json says so (the build writes
// one saying no; the judge answers yes in its place: compiler/links.py JUDGE_FILE), so a
// static host is asked only for a file it has. A judge elsewhere, named when the book was
// built (`rulebook serve`), is asked directly.
(() => {
  const KEY = "rulebook-judge-answers";

  function judgeRoot(link) {
    const url = new URL(link.href, location.href);
    return new URL("./", url);
  }

  function siteRoot() {
    const settings = document.getElementById("__config");
    return settings ? new URL(JSON.parse(settings.textContent).base + "/", location.href) : null;
  }

  async function asked(root) {
    const site = siteRoot();
    if (site && root === new URL("../", site).href) {
      const reply = await fetch(new URL("judge.json", site));
      return reply.ok && (await reply.json()).answers === true;
    }
    const reply = await fetch(new URL("api/rulesets", root), { method: "GET" });
    return reply.ok && (reply.headers.get("content-type") || "").includes("json");
  }

  async function answers(root) {
    const cached = sessionStorage.getItem(KEY + root);
    if (cached !== null) return cached === "yes";
    let ok = false;
    try {
      ok = await asked(root);
    } catch (e) {
      ok = false;
    }
    sessionStorage.setItem(KEY + root, ok ? "yes" : "no");
    return ok;
  }

  async function show() {
    const first = document.querySelector("a.judge-link");
    if (!first) return;
    if (await answers(judgeRoot(first).href)) document.body.classList.add("judge-answers");
  }

  // With instant navigation, material publishes every page change on document$.
  if (typeof document$ !== "undefined") document$.subscribe(show);
  else document.addEventListener("DOMContentLoaded", show);
})();
