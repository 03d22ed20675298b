// The classroom table's only script: the next box or button takes the focus (so a class can
// play with the keyboard alone, and in hot-seat the next player types straight away), and the
// time limit counts down, reloading the table when it runs out. The page works without it.
"use strict";

function focusNext() {
  const answer = document.querySelector('input[name="answer"]');
  if (answer) {
    answer.focus();
    answer.select();
    return;
  }
  const next = document.querySelector(".actions button, .summary button, .setup select, .games button");
  if (next) next.focus();
}

function countDown() {
  const clock = document.querySelector("time[data-seconds]");
  if (!clock) return;
  let left = Number(clock.dataset.seconds);
  const show = () => {
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    clock.textContent = minutes + ":" + seconds;
  };
  const timer = setInterval(() => {
    left = Math.max(0, left - 1);
    show();
    if (left === 0) {
      clearInterval(timer);
      window.location.reload();
    }
  }, 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  focusNext();
  countDown();
});
