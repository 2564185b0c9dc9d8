// The match form: a chosen file is read into the text box (the form itself posts text).
"use strict";
document.getElementById("match-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  document.getElementById("match-text").value = await file.text();
});
