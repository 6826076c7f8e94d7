// Tables of class "sortable": a click on a header sorts the rows by that column (again: the other way).
document.querySelectorAll('table.sortable').forEach((table) => {
  table.querySelectorAll('th').forEach((th, col) => {
    th.style.cursor = 'pointer';
    th.title = 'sort by this column';
    th.addEventListener('click', () => {
      const body = table.tBodies[0];
      const up = th.dataset.sorted !== 'up';
      table.querySelectorAll('th').forEach((h) => { delete h.dataset.sorted; });
      th.dataset.sorted = up ? 'up' : 'down';
      const key = (row) => row.cells[col].textContent.trim();
      const rows = Array.from(body.rows);
      const numeric = rows.every((r) => key(r) === '' || !isNaN(Number(key(r))));
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y, undefined, {numeric: true});
        return up ? order : -order;
      });
      body.append(...rows);
    });
  });
});
