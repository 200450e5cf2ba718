// Talking to the judge's API: one place that turns a refusal into words.

/** An error the API gave (or the network), with the problems it named. */
export class ApiError extends Error {
  constructor(message, problems = [], status = 0) {
    super(message);
    this.problems = problems;
    this.status = status;
  }
}

/** GET or POST (when body is given) a JSON endpoint under api/; throws ApiError. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(`api/${path}`, init);
  } catch (e) {
    throw new ApiError(`The judge's server could not be reached (${e.message}).`);
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: said below */ }
  if (!response.ok) {
    const err = data && data.error;
    if (err) throw new ApiError(err.message || err.code, err.problems || [], response.status);
    throw new ApiError(`The server answered ${response.status} ${response.statusText}.`, [], response.status);
  }
  if (data === null) throw new ApiError("The server's answer was not JSON.");
  return data;
}

/** Show an error (or clear it, with null) in the error box for `where`. */
export function showError(where, error) {
  const box = document.querySelector(`[data-error-for="${where}"]`) || document.getElementById("page-error");
  box.replaceChildren();
  if (!error) { box.hidden = true; return; }
  box.append(error.message || String(error));
  const problems = error.problems || [];
  if (problems.length) {
    const list = document.createElement("ul");
    for (const p of problems) {
      const li = document.createElement("li");
      li.textContent = p.path ? `${p.path}: ${p.message}` : p.message;
      list.append(li);
    }
    box.append(list);
  }
  box.hidden = false;
  box.scrollIntoView({ block: "nearest", behavior: "smooth" });
}
