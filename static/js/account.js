// Signing out, from one's own player page.
import { post, setSession } from "./api.js";
import { showError } from "./errors.js";
import { navigate } from "./nav.js";

export async function signOut() {
  try { await post("/api/auth/logout"); } catch (error) { if (error.code !== "bad_token") showError(error); }
  setSession(null);
  navigate("/");
}
