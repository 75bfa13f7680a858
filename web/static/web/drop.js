// The home page's record box: a file dropped on the form is verified as if chosen; a text
// file's content is not read here, the server reads the file as it reads a chosen one.
(function () {
  "use strict";
  var form = document.querySelector("form[data-drop]");
  if (!form) return;
  var input = form.querySelector("input[type=file]");
  ["dragenter", "dragover"].forEach(function (name) {
    form.addEventListener(name, function (event) {
      event.preventDefault();
      form.classList.add("dropping");
    });
  });
  ["dragleave", "drop"].forEach(function (name) {
    form.addEventListener(name, function () {
      form.classList.remove("dropping");
    });
  });
  form.addEventListener("drop", function (event) {
    event.preventDefault();
    var files = event.dataTransfer && event.dataTransfer.files;
    if (files && files.length && input) {
      input.files = files;
      form.submit();
    }
  });
})();
