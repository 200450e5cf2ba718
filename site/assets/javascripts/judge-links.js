// "Ask the judge" and "Open in the judge" links lead to the judge (`rulebook judge`), which
// serves this rulebook at /rulebook/ and answers beside it. A copy of the rulebook hosted
// without a judge keeps the links hidden: they appear only once the judge has answered.
(() => {
  const KEY = "rulebook-judge-answers";

  function judgeRoot(link) {
    const url = new URL(link.href, location.href);
    return new URL("./", url);
  }

  async function answers(root) {
    const cached = sessionStorage.getItem(KEY + root);
    if (cached !== null) return cached === "yes";
    let ok = false;
    try {
      const reply = await fetch(new URL("api/rulesets", root), { method: "GET" });
      ok = reply.ok && (reply.headers.get("content-type") || "").includes("json");
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
