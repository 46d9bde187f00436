import sqlite3


def totals_by_customer(orders):
    con = sqlite3.connect(":memory:")
    try:
        con.execute("CREATE TABLE orders (customer TEXT, amount INTEGER)")
        con.executemany("INSERT INTO orders VALUES (?, ?)", orders)
        rows = con.execute(
            "SELECT customer, SUM(amount) FROM orders GROUP BY customer ORDER BY customer"
        ).fetchall()
    finally:
        con.close()
    return {customer: total for customer, total in rows}
