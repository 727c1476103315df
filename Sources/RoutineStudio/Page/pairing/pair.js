// The page a phone opens from a pairing address, https://NAME/pair#CODE: the code is in the
// fragment, which the browser never sends; it goes to the studio with the name the person
// chose, once, and the answer's cookie is the phone's credential. Then Today.
const form = document.getElementById("pair-form");
const message = document.getElementById("pair-message");
const code = location.hash.slice(1);
// The code leaves the address bar, so it is not kept in the browser's history.
history.replaceState(null, "", "/pair");

if (!code) message.textContent = "This address holds no pairing code: open the one the desk shows under 'Pair a phone'.";

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.getElementById("pair-name").value.trim();
  const response = await fetch("/api/pair/redeem", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, name }),
    cache: "no-store",
  }).catch(() => null);
  if (!response) {
    message.textContent = "The studio cannot be reached.";
    return;
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    message.textContent = answer && answer.error ? answer.error.message : response.statusText;
    return;
  }
  message.textContent = `Paired as ${answer.name}.`;
  location.replace("/#today");
});
