#!/bin/sh
# Issues a refund: refund.sh INVOICE AMOUNT
echo "refunding $2 on invoice $1"
